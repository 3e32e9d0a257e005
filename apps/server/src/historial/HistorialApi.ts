/**
 * `GET /switch/v1/links/{id}/historial`: a link's history for the portal's detail, from what
 * the service already records: the link (made, paid, expired), its payment attempts
 * (`intentos_pago`), its settlement (`transacciones`, `liquidacion`), and the notices about it
 * (`eventos` whose data names the link) with their deliveries. Merchant- and mode-scoped.
 */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { CurrentCaller, type Historial, NotFound, SwitchApi } from "@switch/api"
import { Money } from "@switch/core"
import { Effect } from "effect"
import { isUuid } from "../platform/Uuid.js"

type Entrada = Historial.HistorialEntrada
type Entrega = Entrada["entregas"][number]

const money = (cents: number | string) => Money.toNumber(Money.Cents(Number(cents)))
const iso = (at: Date) => at.toISOString()

const entrada = (
  tipo: Entrada["tipo"],
  fecha: Date,
  fields: Partial<Omit<Entrada, "tipo" | "fecha">> = {}
) => ({
  tipo,
  fecha: iso(fecha),
  estado: fields.estado ?? null,
  detalle: fields.detalle ?? null,
  monto: fields.monto ?? null,
  evento_id: fields.evento_id ?? null,
  evento: fields.evento ?? null,
  entregas: fields.entregas ?? []
})

/** The order of entries at the same instant: the way a link's life goes. */
const ORDER: Readonly<Record<Entrada["tipo"], number>> = {
  creado: 0,
  intento: 1,
  pagado: 2,
  acreditado: 3,
  expirado: 4,
  aviso: 5,
  devuelto: 3
}

export const historial = (caller: { readonly comercioId: string; readonly mode: string }, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const notFound = new NotFound({ error: "not_found", detail: "El link no existe." })
    if (!isUuid(id)) return yield* Effect.fail(notFound)
    const links = yield* sql<{
      id: string
      estado: string
      created_at: Date
      paid_at: Date | null
      expires_at: Date | null
    }>`
      select id, estado, created_at, paid_at, expires_at from links
      where id = ${id} and comercio_id = ${caller.comercioId} and mode = ${caller.mode}`
    const link = links[0]
    if (link === undefined) return yield* Effect.fail(notFound)

    const intentos = yield* sql<{
      estado: string
      motivo_rechazo: string | null
      referencia_banco: string | null
      created_at: Date
    }>`
      select estado, motivo_rechazo, referencia_banco, created_at from intentos_pago
      where link_id = ${id} and comercio_id = ${caller.comercioId}
      order by created_at, id`
    const liquidaciones = yield* sql<{
      monto: string
      estado: string
      created_at: Date
      liquidada_at: Date | null
    }>`
      select monto, estado, created_at, liquidada_at from transacciones
      where link_id = ${id} and comercio_id = ${caller.comercioId} and operacion = 'liquidacion'`
    // Refunds from the portal that reached the payer (issue 33).
    const devueltos = yield* sql<{ monto: string; liquidada_at: Date | null; created_at: Date }>`
      select d.monto, d.liquidada_at, d.created_at from transacciones d
      join transacciones c on c.id = d.original_id
      where c.link_id = ${id} and c.comercio_id = ${caller.comercioId} and c.operacion = 'cobro'
        and d.operacion = 'devolucion' and d.estado = 'LIQUIDADA'`
    const eventos = yield* sql<{
      id: string
      evento: string
      created_at: Date
      monto_acreditado: number | null
    }>`
      select id, evento, created_at, (data->>'monto_acreditado')::numeric::float8 as monto_acreditado from eventos
      where comercio_id = ${caller.comercioId} and mode = ${caller.mode}
        and created_at >= ${link.created_at} and data->>'link_id' = ${id}
      order by seq`
    const entregas =
      eventos.length === 0
        ? []
        : yield* sql<{
            id: string
            evento_id: string
            webhook_id: string
            url: string
            estado: Entrega["estado"]
            intentos: number
            proximo_intento: Date | null
            codigo_http: number | null
            error: string | null
          }>`
            select e.id, e.evento_id, e.webhook_id, w.url, e.estado, e.intentos, e.proximo_intento,
              e.codigo_http, e.error
            from webhook_entregas e join webhooks w on w.id = e.webhook_id
            where e.evento_id in ${sql.in(eventos.map((e) => e.id))} and e.comercio_id = ${caller.comercioId}
            order by e.created_at, e.id`

    const entries: Array<Entrada> = [entrada("creado", link.created_at, { estado: "pendiente" })]
    for (const intento of intentos)
      entries.push(
        entrada("intento", intento.created_at, {
          estado: intento.estado,
          detalle: intento.motivo_rechazo ?? intento.referencia_banco
        })
      )
    if (link.paid_at !== null) entries.push(entrada("pagado", link.paid_at, { estado: "pagado" }))
    const liquidada = liquidaciones.find((l) => l.estado === "LIQUIDADA")
    const acreditado = eventos.find((e) => e.evento === "link.acreditado")
    if (liquidada !== undefined)
      entries.push(
        entrada("acreditado", liquidada.liquidada_at ?? liquidada.created_at, {
          estado: liquidada.estado,
          monto: money(liquidada.monto)
        })
      )
    else if (acreditado !== undefined)
      entries.push(entrada("acreditado", acreditado.created_at, { monto: acreditado.monto_acreditado }))
    for (const d of devueltos)
      entries.push(
        entrada("devuelto", d.liquidada_at ?? d.created_at, { estado: "LIQUIDADA", monto: money(d.monto) })
      )
    if (link.estado === "expirado" && link.expires_at !== null)
      entries.push(entrada("expirado", link.expires_at, { estado: "expirado" }))
    for (const evento of eventos)
      entries.push(
        entrada("aviso", evento.created_at, {
          evento_id: `evt_${evento.id}`,
          evento: evento.evento,
          entregas: entregas
            .filter((d) => d.evento_id === evento.id)
            .map((d) => ({
              id: d.id,
              webhook_id: d.webhook_id,
              url: d.url,
              estado: d.estado,
              intentos: d.intentos,
              proximo_intento: d.proximo_intento === null ? null : iso(d.proximo_intento),
              codigo_http: d.codigo_http,
              error: d.error
            }))
        })
      )
    // Stable: equal instants keep the life order above.
    entries.sort((a, b) => a.fecha.localeCompare(b.fecha) || ORDER[a.tipo] - ORDER[b.tipo])
    return { link_id: link.id, entradas: entries }
  }).pipe(Effect.catchTag("SqlError", Effect.die))

export const HistorialApiLive = HttpApiBuilder.group(SwitchApi, "historial", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("link", ({ path }) =>
      Effect.flatMap(CurrentCaller, (caller) =>
        historial(caller, path.id).pipe(Effect.provideService(SqlClient.SqlClient, sql))
      )
    )
  })
)
