/** The portal's only way to the service: the SDK, in session mode, on the page's own origin. */
import { Switch, SwitchError } from "@switch/sdk"

export const sw = Switch.sesion()

let lost: () => void = () => {}
/** What to do when a call finds the session over (idle, expired, signed out elsewhere). */
export const onSessionLost = (listener: () => void) => {
  lost = listener
}

/** What to tell a merchant about a failed call: the service's own words when it gave some. */
export const errorText = (error: unknown): string => {
  if (error instanceof SwitchError) {
    const detail = (error as { detail?: unknown }).detail
    if (error.status === 401) {
      lost()
      return typeof detail === "string" && detail !== ""
        ? detail
        : "Tu sesión terminó. Inicia sesión de nuevo."
    }
    if (typeof detail === "string" && detail !== "") return detail
    if (typeof detail === "object" && detail !== null && "fieldErrors" in detail) {
      const fields = (detail as { fieldErrors: Record<string, ReadonlyArray<string>> }).fieldErrors
      return Object.entries(fields)
        .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
        .join(". ")
    }
    if (error.status === 0 || error.code === "connection_error")
      return "No hay conexión con Switch. Revisa tu red."
    return "No se pudo completar. Intenta de nuevo."
  }
  return "Algo salió mal. Intenta de nuevo."
}
