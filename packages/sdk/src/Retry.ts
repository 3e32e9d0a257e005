/**
 * When to repeat a request and how long to wait. Pure: the clock and the random source come
 * in as arguments, so the policy is tested exactly.
 */
import {
  BankCloseError,
  ConnectionError,
  parseRetryAfter,
  RateLimitError,
  type SwitchError
} from "./Errors.js"

/** Backoff settings; every field has a default. */
export interface RetryConfig {
  /** First delay before jitter, in ms (default 500). Doubles per attempt. */
  readonly initialDelayMs?: number
  /** Ceiling of the exponential delay, in ms (default 8000). */
  readonly maxDelayMs?: number
  /**
   * The longest `Retry-After` the client waits for, in ms (default 60000). A longer one (for
   * example `503 cierre_bancario` until 01:30) is handed to the caller as the error instead.
   */
  readonly maxRetryAfterMs?: number
}

export const DEFAULT_RETRY: Required<RetryConfig> = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000
}

/**
 * The delay before retry number `attempt + 1` (attempt counts from 0): exponential, capped,
 * with "equal jitter" (half fixed, half random) so a crowd of clients does not retry in step.
 */
export const backoffDelay = (
  attempt: number,
  config: RetryConfig = {},
  random: () => number = Math.random
): number => {
  const { initialDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...config }
  const base = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt)
  return Math.round(base / 2 + random() * (base / 2))
}

export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly delayMs: number }

/**
 * Whether to repeat after `error`. `idempotent` says the request may be sent again after an
 * ambiguous failure (no answer, or a 5xx that may have come after the work was done): reads,
 * creates carrying an idempotency key, and state changes that are safe to repeat. A `429` or
 * `503` means the request was not processed, so those repeat for every request.
 */
export const retryDecision = (input: {
  readonly error: SwitchError
  readonly attempt: number
  readonly maxRetries: number
  readonly idempotent: boolean
  readonly config?: RetryConfig | undefined
  readonly random?: (() => number) | undefined
}): RetryDecision => {
  const { error, attempt, maxRetries, idempotent } = input
  const config = { ...DEFAULT_RETRY, ...input.config }
  if (attempt >= maxRetries) return { retry: false }
  const delay = backoffDelay(attempt, config, input.random)
  if (error instanceof ConnectionError) return idempotent ? { retry: true, delayMs: delay } : { retry: false }
  const status = error.status
  if (status === 429 || status === 503) {
    const asked =
      error instanceof RateLimitError
        ? error.retryAfter
        : error instanceof BankCloseError
          ? error.reintentarEn
          : parseRetryAfter(error.headers["retry-after"])
    if (asked === undefined) return { retry: true, delayMs: delay }
    const askedMs = asked * 1000
    if (askedMs > config.maxRetryAfterMs) return { retry: false }
    return { retry: true, delayMs: Math.max(delay, askedMs) }
  }
  if (status !== undefined && status >= 500 && idempotent) return { retry: true, delayMs: delay }
  return { retry: false }
}
