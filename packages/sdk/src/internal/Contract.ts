/**
 * The source of `src/Types.ts`: request and response types, taken from the schemas the server
 * itself uses (@switch/api and @switch/core). `scripts/types.mjs` writes each of them out as a
 * plain type into `src/Types.ts`, so the published SDK names no unpublished package and needs
 * no `effect` for its types. Edit this file, then run `npm run types -w @switch/sdk`.
 * Wire shapes are the schemas' `Encoded` side: plain JSON numbers and strings.
 *
 * The direct API's result is @switch/core's `Resultado`; its bodies are @switch/api's `Direct`
 * schemas with the idempotency key made optional (the SDK fills it in).
 */
import type {
  AccionesMasivas as ApiAccionesMasivas,
  Actividad as ApiActividad,
  Clientes as ApiClientes,
  CuentasAprobadas as ApiCuentasAprobadas,
  Dolares as ApiDolares,
  Eventos as ApiEventos,
  Events as ApiEvents,
  Historial as ApiHistorial,
  MiPagina as ApiMiPagina,
  Propinas as ApiPropinas,
  Reembolsos as ApiReembolsos,
  Resumen as ApiResumen,
  ResumenDiario as ApiResumenDiario,
  Webhooks as ApiWebhooks,
  Comercios,
  Direct,
  Equipo,
  Links,
  Liquidaciones,
  Lotes,
  Recibos,
  Seguridad,
  Sesiones
} from "@switch/api"
import type {
  Amount,
  Instrument as CoreInstrument,
  Resultado as CoreResultado,
  LinkRequest,
  Operation
} from "@switch/core"
import type { Schema } from "effect"

type Encoded<S> = Schema.Schema.Encoded<S>

/** `test` or `live`, from the key's prefix. */
export type Mode = Encoded<typeof Links.ModeSchema>

// ---- Links ---------------------------------------------------------------------------------

/**
 * A payment link as get and list return it (create returns the same shape). `qr_png` is the URL
 * of the QR code of `url` as a PNG, `{base_url}/l/<id>/qr.png`: public, immutable, cacheable.
 */
export type Link = Encoded<typeof Links.Link>
/** `GET /links/{id}/historial`: made, payment attempts, paid, credited, and the notices with their deliveries. */
export type LinkHistorial = Encoded<typeof ApiHistorial.LinkHistorial>
/** `pendiente`, `cobrando`, `procesando`, `revision`, `pagado`, `expirado`, `cancelado`. */
export type LinkEstado = Encoded<typeof Links.LinkEstado>
/** The `POST /links` body. `idempotency_key` is filled in when absent. */
export type LinkCreateParams = Encoded<typeof LinkRequest.LinkCreate>

/** `GET /links/total`: how many links match the list's filters, paging aside. */
export type LinksTotal = Encoded<typeof Links.LinksTotal>

type LinkFilterWire = Encoded<typeof Links.LinkFilters>
/**
 * Filters of `GET /links`, with friendlier types than the query string: several states as an
 * array, dates as `Date` or epoch ms, amounts as numbers. Names come from the API's schema.
 */
export type LinkListParams = Omit<
  LinkFilterWire,
  "estado" | "desde" | "hasta" | "min" | "max" | "con_propina" | "mode" | "limit" | "offset"
> & {
  readonly estado?: LinkEstado | ReadonlyArray<LinkEstado> | string
  readonly desde?: string | number | Date
  readonly hasta?: string | number | Date
  readonly min?: number
  readonly max?: number
  readonly con_propina?: boolean
  readonly mode?: Mode
  /** Page size: default 50, at most 200. Iterating fetches pages of this size. */
  readonly limit?: number
  /** Where the first page starts; default 0. */
  readonly offset?: number
}
export type LinkCancelResult = Encoded<typeof Links.CancelResult>
export type LinkSimulateParams = Encoded<typeof Links.SimularBody>
export type LinkSimulateResult = Encoded<typeof Links.SimularResult>

// ---- Lotes ---------------------------------------------------------------------------------

/** The `POST /lotes` body. `idempotency_key` is filled in when absent. */
export type LoteCreateParams = Encoded<typeof LinkRequest.LoteCreate>
export type LoteCreateItem = Encoded<typeof LinkRequest.LoteItem>
/** A batch with its items and summary. */
export type Lote = Encoded<typeof Lotes.Lote>
/** A batch as the list shows it: summary without items. */
export type LoteSummary = Encoded<typeof Lotes.LoteSummary>
export type LoteItem = Encoded<typeof Lotes.LoteItemView>
export type LoteCancelResult = Encoded<typeof Lotes.LoteCancelResult>

/** `limit` (default 50, at most 200) and `offset` (default 0). */
export interface PageParams {
  readonly limit?: number
  readonly offset?: number
}

// ---- Receipts, transactions, merchants -------------------------------------------------------

/** `GET /verificar/{codigo}` when the code exists. */
export type Verificacion = Encoded<typeof Recibos.Verificacion>
/** `GET /verificar/{codigo}` when the code does not exist (`valido: false`). */
export type VerificacionNoEncontrada = Encoded<typeof Recibos.CodigoNoEncontrado>
export type Transaccion = Encoded<typeof Recibos.Transaccion>

/**
 * Filters of `GET /transacciones` and `GET /transacciones/exportar`: `estado` (`LIQUIDADA`),
 * `operacion` (`cobro`), `desde` and `hasta` (ISO 8601, Caracas time without an offset, or ms).
 */
export type TransaccionFiltros = Encoded<typeof Recibos.TransaccionFiltros>
export type TransaccionListParams = PageParams &
  TransaccionFiltros & {
    /** `reciente` (default), `antiguo`, `monto_desc` or `monto_asc`; another than `reciente` pages by offset. */
    readonly orden?: "reciente" | "antiguo" | "monto_desc" | "monto_asc"
  }
/** `GET /transacciones/total`: how many transactions match the filters, paging aside. */
export type TransaccionesTotal = Encoded<typeof Recibos.TransaccionesTotal>
export type ConfigView = Encoded<typeof Comercios.ConfigView>
export type RegistroParams = Encoded<typeof Comercios.RegistroBody>
export type RegistroResult = Encoded<typeof Comercios.RegistroResult>
export type Llave = Encoded<typeof Comercios.Llave>
export type LlaveCreateParams = Encoded<typeof Comercios.LlaveBody>
export type LlaveCreada = Encoded<typeof Comercios.LlaveCreada>
export type LlaveRollParams = Encoded<typeof Comercios.RotarLlaveBody>
export type LlaveRotada = Encoded<typeof Comercios.LlaveRotada>

// ---- Portal sessions (browser clients) -----------------------------------------------------

/** A portal user's role: `propietario`, `cajero` or `lectura`. */
export type Rol = Encoded<typeof Sesiones.Rol>
/** `POST /sesion`: the user's e-mail and password. */
export type IniciarSesionParams = Encoded<typeof Sesiones.IniciarSesionBody>
/** The signed-in session: user, role, merchant, mode, whether live is open, the CSRF token. */
export type SesionInfo = Encoded<typeof Sesiones.Sesion>
/** Sign-out's answer: how many sessions ended. */
export type SesionCerrada = Encoded<typeof Sesiones.SesionCerrada>

// ---- Team and one-time password links (portal) ---------------------------------------------

/** A user of the merchant's portal: e-mail, role, `activo` or `invitado`. */
export type Usuario = Encoded<typeof Equipo.Usuario>
/** `POST /equipo`: the invited user's e-mail and role. */
export type InvitarParams = Encoded<typeof Equipo.InvitarBody>
/** `DELETE /equipo/{id}`'s answer: the user and how many of its sessions ended. */
export type UsuarioEliminado = Encoded<typeof Equipo.UsuarioEliminado>
/** `POST /contrasena`: the one-time link's token and the new password. */
export type DefinirContrasenaParams = Encoded<typeof Equipo.DefinirBody>
/** `POST /contrasena`'s answer: the user whose password was set. */
export type ContrasenaDefinida = Encoded<typeof Equipo.ContrasenaDefinida>
/** `POST /correo/verificar`'s answer: the e-mail confirmed by the one-time link. */
export type CorreoVerificado = Encoded<typeof Equipo.CorreoVerificado>
/** `POST /contrasena/olvido`'s answer, the same whether or not the e-mail has a user. */
export type OlvidoResult = Encoded<typeof Equipo.OlvidoResult>
/**
 * `POST /sesion/totp`: the new second factor's secret (shown once), its `otpauth://` URI and
 * that URI's QR code (`qr_svg`, an SVG drawn by the service).
 */
export type TotpInscripcion = Encoded<typeof Seguridad.TotpInscripcion>
/** Whether the user has a second factor. */
export type TotpEstado = Encoded<typeof Seguridad.TotpEstado>
/** `POST /sesion/totp/confirmar`: the second factor is on; its ten recovery codes, shown once. */
export type TotpActivado = Encoded<typeof Seguridad.TotpActivado>
/** `POST /sesion/totp/recuperacion`: ten new recovery codes, shown once (the old ones are spent). */
export type CodigosRecuperacion = Encoded<typeof Seguridad.Recuperacion>
/** One entry of the users' audit log (`GET /actividad`). */
export type Actividad = Encoded<typeof ApiActividad.Actividad>
/** The merchant's own payment page's settings (`GET /mi-pagina`), its address and its QR. */
export type MiPagina = Encoded<typeof ApiMiPagina.MiPagina>
/** `PUT /mi-pagina`: on or off, the amounts the payer may type, whether a concept is allowed. */
export type MiPaginaParams = Encoded<typeof ApiMiPagina.MiPaginaBody>
/** A bulk action on links (`/acciones-masivas`): its progress and its summary. */
export type AccionMasiva = Encoded<typeof ApiAccionesMasivas.AccionMasiva>
/** `POST /acciones-masivas`: `cancelar` or `exportar` the links the filters of `GET /links` choose. */
export type AccionMasivaParams = Encoded<typeof ApiAccionesMasivas.AccionMasivaBody>

// ---- Direct API (SPEC "Collect", "Pay", "Query an operation") ------------------------------

/** An account or phone at a bank with its holder (`cobrador`, `pagador`, `ordenante`, `beneficiario`). */
export type Instrument = Encoded<typeof CoreInstrument.Instrument>
/** `{ valor, moneda? }`; `moneda` defaults to `VES`. */
export type Monto = Encoded<typeof Amount.AmountObject>
/** SPEC's operation result: read `estado`, not the HTTP status. */
export type Resultado = Encoded<typeof CoreResultado.Resultado>
export type EstadoOperacion = Operation.OperationState
export type Canal = Encoded<typeof Direct.Canal>

/** The idempotency key is optional in the SDK: a UUID is generated when absent and kept across retries. */
type WithOptionalKey<T extends { readonly idempotency_key: string }> = Omit<T, "idempotency_key"> & {
  /** A UUID; generated when absent. Reuse the token step's in `cobrar`. */
  readonly idempotency_key?: string
}

/** `POST /cobrar/token`: ask the payer's bank to send the one-time code. */
export type CobroTokenParams = WithOptionalKey<Encoded<typeof Direct.CobrarTokenBody>>
/** `POST /cobrar`: the same body plus the code (`otp`) the payer received. */
export type CobroParams = WithOptionalKey<Encoded<typeof Direct.CobrarBody>>
/** `POST /pagar`: send money (enabled integrations only). */
export type PagoParams = WithOptionalKey<Encoded<typeof Direct.PagarBody>>

/** The token step's result, with the idempotency key it used (pass it to `cobrar`). */
export type CobroTokenResult = Resultado & { readonly idempotency_key: string }

// ---- Webhooks, eventos, clientes ------------------------------------------------------------

export type WebhookEstado = Encoded<typeof ApiWebhooks.WebhookEstado>
/** A registered webhook endpoint, never with its secret. */
export type Webhook = Encoded<typeof ApiWebhooks.Webhook>
/** The creation answer: the webhook and its `secret` (`whsec_...`), shown only here. */
export type WebhookCreated = Encoded<typeof ApiWebhooks.WebhookCreated>
/** `url` (`https`) and `eventos` (names, or `*` for all). */
export type WebhookCreateParams = Encoded<typeof ApiWebhooks.WebhookCreate>
export type WebhookUpdateParams = Encoded<typeof ApiWebhooks.WebhookUpdate>
export type WebhookDeleteResult = Encoded<typeof ApiWebhooks.WebhookDeleted>
/** One notice to one webhook: state, attempts, next attempt and last error. */
export type WebhookDelivery = Encoded<typeof ApiWebhooks.WebhookDelivery>
/** A notice as `GET /eventos` lists it (the webhook envelope, `data` untyped). */
export type Evento = Encoded<typeof ApiEventos.Evento>
/** Pages of `GET /eventos`, and `evento` to list only the notices of that type. */
export interface EventoListParams extends PageParams {
  readonly evento?: string
  /** The id of a notice: the list starts with the one right after it (older, as the list is newest first). */
  readonly starting_after?: string
}

/** A customer of the merchant (a payer who opted in on the payment page of a paid link). */
export type Cliente = Encoded<typeof ApiClientes.Cliente>
export type ClienteListParams = PageParams

/** A settlement: a paid link's net credited to the merchant, with its state. */
export type Liquidacion = Encoded<typeof Liquidaciones.Liquidacion>
/**
 * The settlements' filters: `estado` (`PENDIENTE`, `LIQUIDADA`, `REVISION` or `RECHAZADA`),
 * `desde` and `hasta` (both included), `min` and `max` (Bs, on the net).
 */
export type LiquidacionFiltros = Encoded<typeof Liquidaciones.LiquidacionFiltros>
/** `limit`, `offset`, the filters, and `orden`. */
export type LiquidacionListParams = PageParams &
  LiquidacionFiltros & {
    /** `reciente` (default), `antiguo`, `monto_desc` or `monto_asc`; another than `reciente` pages by offset. */
    readonly orden?: "reciente" | "antiguo" | "monto_desc" | "monto_asc"
  }
/** `GET /liquidaciones/total`: how many settlements match the filters, paging aside. */
export type LiquidacionesTotal = Encoded<typeof Liquidaciones.LiquidacionesTotal>

/** The portal's home summary: the week's collections by day, open links, latest payments, settlements. */
export type Resumen = Encoded<typeof ApiResumen.Resumen>

// ---- Notices (webhooks, the event list and the stream), from @switch/api's Events.ts ----------

/** Data of `link.pagado`: the bank (or card processor) confirmed the payment. */
export type LinkPagadoData = Encoded<typeof ApiEvents.LinkPagadoData>
/** Data of `link.acreditado`: the net reached the merchant's account. */
export type LinkAcreditadoData = Encoded<typeof ApiEvents.LinkAcreditadoData>
/** Data of `link.devuelto` (pilot): a refund reached the payer. */
export type LinkDevueltoData = Encoded<typeof ApiEvents.LinkDevueltoData>
/** Data of `transaccion.*`; act on `liquidada` only when `operacion` is `cobro`. */
export type TransaccionData = Encoded<typeof ApiEvents.TransaccionData>
/** Data of `webhook.test`, the portal's test notice. */
export type WebhookTestData = Encoded<typeof ApiEvents.WebhookTestData>
/**
 * Every notice Switch sends, discriminated by `evento`: `{id, evento, creado_en, data}`, `id`
 * being `evt_<uuid>` (dedupe on `x-service-delivery` or on it).
 */
export type SwitchEvent = Encoded<typeof ApiEvents.SwitchEvent>

/** Every notice name the API declares (`Webhooks.ts` checks that `SwitchEvent` covers them). */
export type ApiEventName = ApiWebhooks.EventName

// ---- Refunds from the portal (pilot) ------------------------------------------------------

/** `GET /links/{id}/reembolsos` (portal session, pilot): paid, refunded, what is left, each refund. */
export type LinkReembolsos = Encoded<typeof ApiReembolsos.LinkReembolsos>
/** One refund of a paid link from the portal; `estado` is the bank's (`LIQUIDADA` reached the payer). */
export type Reembolso = Encoded<typeof ApiReembolsos.Reembolso>
/** The `POST /links/{id}/reembolsos` body; without `monto`, all that is left. `idempotency_key` is filled in when absent. */
export type ReembolsoParams = Omit<Encoded<typeof ApiReembolsos.ReembolsoBody>, "idempotency_key"> & {
  readonly idempotency_key?: string
}

// ---- Links priced in dollars (portal) ------------------------------------------------------

/** The `POST /links/dolares` body (portal session): `POST /links`'s with `monto_usd` instead of `monto`. */
export type LinkDolaresParams = Encoded<typeof ApiDolares.LinkDolaresBody>
/** `GET /links/{id}/dolares`: the dollar price and the BCV rate that converted it (null on a bolivar link). */
export type LinkDolares = Encoded<typeof ApiDolares.LinkDolares>

// ---- Tips chosen in the portal ----------------------------------------------------------------

/** `GET/PUT /propinas` (portal session): whether the payment page offers a tip, and its cap. */
export type PropinasConfig = Encoded<typeof ApiPropinas.PropinasConfig>
/** The `PUT /propinas` body: `{acepta, max_pct?}` (`max_pct` required when `acepta`). */
export type PropinasParams = Encoded<typeof ApiPropinas.PropinasBody>

// ---- The opt-in daily summary mail ------------------------------------------------------------

/** `GET/PUT /resumen-diario` (a `propietario`'s session): whether the owners get the daily summary mail. */
export type ResumenDiarioConfig = Encoded<typeof ApiResumenDiario.ResumenDiarioConfig>
/** The `PUT /resumen-diario` body: `{resumen_diario}`. */
export type ResumenDiarioParams = Encoded<typeof ApiResumenDiario.ResumenDiarioBody>

/** `GET/POST /cuentas-aprobadas`, `DELETE /cuentas-aprobadas/{id}` (portal session): the list, up to 20. */
export type CuentasAprobadas = Encoded<typeof ApiCuentasAprobadas.CuentasAprobadasLista>
/** One split account approved in the portal, with its `id` for `DELETE`. */
export type CuentaAprobada = Encoded<typeof ApiCuentasAprobadas.CuentaAprobada>
/** The `POST /cuentas-aprobadas` body: an Instrument (`tipo`, `valor`, `banco`, `identificacion`, `tipo_doc?`, `nombre`). */
export type CuentaAprobadaParams = Encoded<typeof ApiCuentasAprobadas.CuentaAprobadaBody>
