/**
 * @switch/sdk: the typed client for the Switch payments API. This entry uses only `fetch` and
 * WebCrypto (no `node:` import), so it runs on Node 20+ and on fetch-based edge runtimes.
 * The Effect client is `@switch/sdk/effect`.
 */
export { type Bank, banks } from "./Banks.js"
export * from "./Errors.js"
export type { FetchLike, RequestOptions } from "./internal/Transport.js"
export { LinkStates } from "./LinkStates.js"
export { ListPromise } from "./Pagination.js"
export { backoffDelay, DEFAULT_RETRY, type RetryConfig, type RetryDecision, retryDecision } from "./Retry.js"
export type { AccionesMasivas } from "./resources/AccionesMasivas.js"
export type { Clientes, Config, Llaves, Recibos, Transacciones } from "./resources/Account.js"
export type { Cobros, Operaciones, Pagos } from "./resources/Direct.js"
export type { ActividadLog, Contrasena, Equipo, Totp } from "./resources/Equipo.js"
export type { Cambio, Eventos } from "./resources/Eventos.js"
export type { Links } from "./resources/Links.js"
export type { Liquidaciones } from "./resources/Liquidaciones.js"
export type { Lotes } from "./resources/Lotes.js"
export type { MiPaginaAjustes } from "./resources/MiPagina.js"
export type { Resumen as ResumenResource } from "./resources/Resumen.js"
export type { Sesion } from "./resources/Sesion.js"
export type { Webhooks } from "./resources/Webhooks.js"
export {
  DEFAULT_BASE_URL,
  type PublicCallOptions,
  Switch,
  Switch as default,
  type SwitchConfig,
  type SwitchSessionConfig,
  type SwitchTokenConfig,
  VERSION
} from "./Switch.js"
export type * from "./Types.js"
export {
  DEFAULT_TOLERANCE_SEC,
  type EventName,
  EventNames,
  generateTestHeader,
  type HeaderSource,
  LEGACY_SIGNATURE_HEADER,
  type LinkAcreditadoData,
  type LinkDevueltoData,
  type LinkPagadoData,
  type RawBody,
  SIGNATURE_HEADER,
  type SignatureHeaderName,
  STANDARD_SIGNATURE_HEADER,
  type SwitchEvent,
  signatureHeaders,
  type TransaccionData,
  type VerifyOptions,
  verify as verifyWebhook
} from "./Webhooks.js"
