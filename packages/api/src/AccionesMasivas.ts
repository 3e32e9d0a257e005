/**
 * Bulk actions on links from the portal (SPEC's Limits: "Bulk actions in the portal: up to 5,000
 * per action"): the links are chosen by the same filters as `GET /links` (not only by ticking
 * rows), frozen when the action is made, and a durable job cancels the open ones, exports them
 * as CSV or resends each one's last notice, with its progress and a summary (done, skipped and why).
 *
 * An export's CSV is kept 30 days after the action ended (then `archivo` is null and the file
 * `404`); the action itself, with its summary, 400 days (the server's README, "Retention").
 *
 * Who may call: a `propietario`'s portal session only (a key is `401`, another role `403
 * rol_no_permitido`). Each action is written to the users' audit log.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { JsonBody } from "./Body.js"
import { NotFound, ValidationError } from "./Errors.js"
import { Permisos, PROPIETARIO, permiso } from "./Permisos.js"
import { Authentication } from "./Security.js"

/** At most this many links in one action (SPEC). */
export const MAX_LINKS = 5000

export const Accion = Schema.Literal("cancelar", "exportar", "reenviar")

export const AccionMasiva = Schema.Struct({
  id: Schema.String,
  accion: Accion,
  estado: Schema.Literal("en_cola", "en_curso", "terminada").annotations({
    description: "`en_cola` hasta que el trabajo empieza; sigue tras un reinicio del servidor"
  }),
  filtros: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "Los filtros de `GET /links` con que se eligieron los links"
  }),
  total: Schema.Int.annotations({ description: "Links elegidos (hasta 5.000)" }),
  procesados: Schema.Int,
  hechos: Schema.Int.annotations({ description: "Cancelados, exportados, o con su último aviso reenviado" }),
  omitidos: Schema.Record({ key: Schema.String, value: Schema.Int }).annotations({
    description:
      "Links omitidos por motivo: al cancelar, el estado en que estaban (`pagado`, `cobrando`, `expirado`...); " +
      "al reenviar, `sin_aviso` (el link nunca tuvo uno) o `sin_webhook` (ningún webhook activo lo recibe)"
  }),
  archivo: Schema.NullOr(Schema.String).annotations({
    description:
      "Ruta del CSV de una exportación terminada; null en otro caso, y 30 días después de terminada (el archivo se borra, el resumen queda)"
  }),
  created_at: Schema.String,
  terminada_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AccionMasiva" })
export interface AccionMasiva extends Schema.Schema.Type<typeof AccionMasiva> {}

export const AccionMasivaBody = Schema.Struct({
  accion: Accion,
  filtros: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({
    description:
      "Los filtros de `GET /links` (`estado`, `desde`, `hasta`, `q`, `min`, `max`, `con_propina`, `origen`), como texto"
  }),
  confirmar_total: Schema.optional(
    Schema.Int.annotations({
      description:
        "Cuántos links confirmó la persona (el `total` de `GET /links/total` con esos filtros); si los " +
        "filtros eligen otra cantidad al crear la acción, es `400 validation` con `parametro` `confirmar_total` " +
        "y no se hace nada"
    })
  )
}).annotations({ identifier: "AccionMasivaBody" })

const idParam = HttpApiSchema.param("id", Schema.String)

export class AccionesMasivasGroup extends HttpApiGroup.make("accionesMasivas")
  .add(
    HttpApiEndpoint.post("crear", "/switch/v1/acciones-masivas")
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .setPayload(AccionMasivaBody)
      .middleware(JsonBody)
      .addSuccess(AccionMasiva, { status: 202 })
      .addError(ValidationError)
      .annotate(
        OpenApi.Summary,
        "Cancelar, exportar o reenviar el último aviso de hasta 5.000 links elegidos por filtros (solo propietario)"
      )
      .annotate(
        OpenApi.Description,
        "Los links se eligen con los filtros de `GET /links` en el modo de la sesión y quedan fijos. " +
          "Más de 5.000 es `400` con `parametro` `filtros`. `cancelar` cancela los `pendiente` (un link " +
          "nunca queda pagado y cancelado: los que empezaron a cobrarse se omiten); `exportar` arma un CSV; " +
          "`reenviar` envía de nuevo el último aviso de cada link a los webhooks activos que lo reciben."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/switch/v1/acciones-masivas/${idParam}`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(AccionMasiva)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Ver el avance y el resumen de una acción masiva (solo propietario)")
  )
  .add(
    HttpApiEndpoint.get("archivo")`/switch/v1/acciones-masivas/${idParam}/archivo`
      .annotate(Permisos, permiso({ sesion: PROPIETARIO }))
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Descargar el CSV de una exportación masiva terminada (solo propietario)")
      .annotate(
        OpenApi.Description,
        "El archivo se guarda 30 días después de terminada la exportación; luego es `404` y la acción conserva su resumen."
      )
  )
  .middleware(Authentication) {}
