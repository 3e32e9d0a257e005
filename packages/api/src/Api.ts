/** The public Switch API: the source of the server, the SDK clients and `/openapi.json`. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AccionesMasivasGroup } from "./AccionesMasivas.js"
import { ActividadGroup } from "./Actividad.js"
import { ClientesGroup } from "./Clientes.js"
import { ConfigGroup, LlavesGroup, RegistroGroup } from "./Comercios.js"
import { CuentasAprobadasGroup } from "./CuentasAprobadas.js"
import { DirectGroup } from "./Direct.js"
import { DolaresGroup } from "./Dolares.js"
import { ContrasenaGroup, EquipoGroup } from "./Equipo.js"
import { InternalError } from "./Errors.js"
import { EventosGroup } from "./Eventos.js"
import { withExamples } from "./Examples.js"
import { FlowsGroup, FlowsSetupGroup } from "./Flows.js"
import { HistorialGroup } from "./Historial.js"
import { LinksGroup } from "./Links.js"
import { LiquidacionesGroup } from "./Liquidaciones.js"
import { LogsGroup } from "./Logs.js"
import { LotesGroup } from "./Lotes.js"
import { MiPaginaGroup } from "./MiPagina.js"
import { notices, webhooksSection } from "./Notices.js"
import { claveRuta, type Permiso, tabla } from "./Permisos.js"
import { PropinasGroup } from "./Propinas.js"
import { RecibosGroup, TransaccionesGroup } from "./Recibos.js"
import { ReembolsosGroup } from "./Reembolsos.js"
import { ResumenGroup } from "./Resumen.js"
import { ResumenDiarioGroup } from "./ResumenDiario.js"
import { SESSION_COOKIE, SESSION_DESCRIPTION } from "./Security.js"
import { TotpGroup } from "./Seguridad.js"
import { SesionGroup, SesionPublicGroup } from "./Sesiones.js"
import { WebhooksGroup } from "./Webhooks.js"

export const VERSION = "0.1.0"

export class SwitchApi extends HttpApi.make("switch")
  .add(LinksGroup)
  .add(LotesGroup)
  .add(RecibosGroup)
  .add(TransaccionesGroup)
  .add(RegistroGroup)
  .add(LlavesGroup)
  .add(ConfigGroup)
  .add(ClientesGroup)
  .add(LiquidacionesGroup)
  .add(ResumenGroup)
  .add(WebhooksGroup)
  .add(EventosGroup)
  .add(DirectGroup)
  .add(FlowsSetupGroup)
  .add(FlowsGroup)
  .add(LogsGroup)
  .add(SesionPublicGroup)
  .add(SesionGroup)
  .add(HistorialGroup)
  .add(ContrasenaGroup)
  .add(EquipoGroup)
  .add(TotpGroup)
  .add(ActividadGroup)
  .add(MiPaginaGroup)
  .add(AccionesMasivasGroup)
  .add(ReembolsosGroup)
  .add(DolaresGroup)
  .add(PropinasGroup)
  .add(ResumenDiarioGroup)
  .add(CuentasAprobadasGroup)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Switch API")
  .annotate(OpenApi.Version, VERSION)
  .annotate(
    OpenApi.Description,
    "Links de pago, lotes, comprobantes y la API directa de Switch, en bolívares (VES). " +
      "Los avisos que Switch envía a sus webhooks están en `webhooks`."
  )
  .annotate(
    HttpApi.AdditionalSchemas,
    notices.map((notice) => notice.schema)
  )
  .annotate(OpenApi.Transform, (spec) => {
    // Every operation's examples (Examples.ts), and the notices webhooks receive (Notices.ts).
    const paths = spec.paths as Record<string, Record<string, Parameters<typeof withExamples>[0]>>
    for (const methods of Object.values(paths))
      for (const operation of Object.values(methods)) withExamples(operation)
    // Who may call (DESIGN §9): each operation's grant (Permisos.ts), as its security list and
    // as `x-permisos`.
    for (const [path, methods] of Object.entries(paths))
      for (const [method, operation] of Object.entries(methods) as Array<
        [string, { security?: Array<Record<string, unknown>>; "x-permisos"?: unknown }]
      >) {
        const permiso = permisos.get(claveRuta(method, path))
        if (permiso === undefined) continue
        operation.security = [
          ...(permiso.llave.length > 0 ? [{ "x-switch-key": [] }] : []),
          ...(permiso.sesion.length > 0 ? [{ [SESSION_COOKIE]: [] }] : [])
        ]
        operation["x-permisos"] = permiso
      }
    const components = spec.components as { securitySchemes?: Record<string, unknown> }
    components.securitySchemes = {
      ...components.securitySchemes,
      [SESSION_COOKIE]: {
        type: "apiKey",
        in: "cookie",
        name: SESSION_COOKIE,
        description: SESSION_DESCRIPTION
      }
    }
    return { ...spec, webhooks: webhooksSection() }
  }) {}

/** Every authenticated endpoint's grant by {@link claveRuta} of its OpenAPI path (`{id}`). */
const permisos: ReadonlyMap<string, Permiso> = new Map(
  tabla(SwitchApi)
    .filter((fila) => fila.autenticado)
    .map((fila) => [claveRuta(fila.metodo, fila.ruta.replace(/:(\w+)/g, "{$1}")), fila.permiso])
)

/** The OpenAPI 3.1 document of the public API. */
export const openApiSpec = () => OpenApi.fromApi(SwitchApi)
