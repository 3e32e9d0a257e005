/**
 * Whether a failed request to a bank never left this machine: only then may it be sent again.
 * Anything else (a reset, a timeout after connecting) may have reached the bank and is unclear.
 */

/** Errors raised before a single byte of the request could reach the bank. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/** The first `code` along an error's `cause` chain (undici wraps the socket's error). */
const errorCode = (error: unknown): string => {
  let e: unknown = error
  for (let depth = 0; depth < 4 && typeof e === "object" && e !== null; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { cause?: unknown }).cause
  }
  return ""
}

/** Whether `error` stopped the request before it could reach the bank. */
export const neverSent = (error: unknown): boolean => NOT_SENT.has(errorCode(error))
