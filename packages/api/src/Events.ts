/**
 * The notices Switch sends (SPEC "Webhooks"): the schema of each event's `data` and the envelope
 * `{id, evento, creado_en, data}` every webhook, the event list and the stream carry. One source:
 * the server encodes each notice's `data` with its schema before writing it, the SDK's event
 * types are derived from these, and `/openapi.json` documents them in its `webhooks` section.
 */
import { Schema } from "effect"
import { JsonObject, ModeSchema } from "./Links.js"
import type { EventName } from "./Webhooks.js"

const Operacion = Schema.Literal(
  "cobro",
  "pago",
  "reverso",
  "devolucion_debito",
  "devolucion",
  "devolucion_retorno"
)

export const LinkPagadoData = Schema.Struct({
  link_id: Schema.String,
  monto: Schema.Number.annotations({ description: "El cobro, sin propina ni recargo" }),
  propina: Schema.Number,
  total: Schema.Number,
  mode: ModeSchema,
  referencia: Schema.NullOr(Schema.String),
  txn_id: Schema.String,
  codigo_verificacion: Schema.NullOr(Schema.String),
  pagador: Schema.Struct({ alta_cliente: Schema.Boolean }),
  metodo: Schema.optional(Schema.Literal("tarjeta")),
  recargo_tarjeta: Schema.optional(Schema.Number)
}).annotations({ identifier: "DatosLinkPagado" })

export const LinkAcreditadoData = Schema.Struct({
  link_id: Schema.String,
  monto_acreditado: Schema.Number.annotations({ description: "Lo que llegó a la cuenta del comercio" }),
  liquidacion_txn_id: Schema.String,
  reparto: Schema.NullOr(JsonObject),
  mode: ModeSchema
}).annotations({ identifier: "DatosLinkAcreditado" })

export const LinkDevueltoData = Schema.Struct({
  link_id: Schema.String,
  monto: Schema.Number.annotations({ description: "Esta devolución" }),
  monto_devuelto: Schema.Number.annotations({ description: "Total devuelto de ese cobro" }),
  mode: ModeSchema
}).annotations({ identifier: "DatosLinkDevuelto" })

export const TransaccionData = Schema.Struct({
  id: Schema.String,
  operacion: Operacion.annotations({
    description: "Entregue bienes en `transaccion.liquidada` solo si es `cobro`"
  }),
  estado: Schema.Literal("LIQUIDADA", "RECHAZADA"),
  monto: Schema.Number,
  moneda: Schema.String,
  concepto: Schema.NullOr(Schema.String),
  referencia_banco: Schema.NullOr(Schema.String),
  endtoend: Schema.NullOr(Schema.String),
  motivo_rechazo: Schema.NullOr(Schema.String),
  intentos: Schema.Int,
  original_id: Schema.optional(Schema.String),
  mode: ModeSchema
}).annotations({ identifier: "DatosTransaccion" })

export const WebhookTestData = Schema.Struct({
  webhook_id: Schema.String,
  mode: ModeSchema,
  mensaje: Schema.String
}).annotations({ identifier: "DatosWebhookTest" })

/** The envelope of one event: `{id: "evt_<uuid>", evento, creado_en, data}`. */
export const envelope = <E extends EventName, D extends Schema.Schema.Any>(
  evento: E,
  data: D,
  identifier: string
) =>
  Schema.Struct({
    id: Schema.String.annotations({ description: "`evt_<uuid>`" }),
    evento: Schema.Literal(evento),
    creado_en: Schema.String,
    data
  }).annotations({ identifier })

/** Every event's `data` schema, by event name. */
export const EventData = {
  "link.pagado": LinkPagadoData,
  "link.acreditado": LinkAcreditadoData,
  "link.devuelto": LinkDevueltoData,
  "transaccion.aprobada": TransaccionData,
  "transaccion.liquidada": TransaccionData,
  "transaccion.rechazada": TransaccionData,
  "webhook.test": WebhookTestData
} as const satisfies Record<EventName, Schema.Schema.Any>

/** The `data` of event `E`, as the server builds it. */
export type EventDataOf<E extends EventName> = Schema.Schema.Type<(typeof EventData)[E]>

export const LinkPagado = envelope("link.pagado", LinkPagadoData, "AvisoLinkPagado")
export const LinkAcreditado = envelope("link.acreditado", LinkAcreditadoData, "AvisoLinkAcreditado")
export const LinkDevuelto = envelope("link.devuelto", LinkDevueltoData, "AvisoLinkDevuelto")
export const TransaccionAprobada = envelope(
  "transaccion.aprobada",
  TransaccionData,
  "AvisoTransaccionAprobada"
)
export const TransaccionLiquidada = envelope(
  "transaccion.liquidada",
  TransaccionData,
  "AvisoTransaccionLiquidada"
)
export const TransaccionRechazada = envelope(
  "transaccion.rechazada",
  TransaccionData,
  "AvisoTransaccionRechazada"
)
export const WebhookTest = envelope("webhook.test", WebhookTestData, "AvisoWebhookTest")

/** Every event's envelope schema, by event name. */
export const Envelopes = {
  "link.pagado": LinkPagado,
  "link.acreditado": LinkAcreditado,
  "link.devuelto": LinkDevuelto,
  "transaccion.aprobada": TransaccionAprobada,
  "transaccion.liquidada": TransaccionLiquidada,
  "transaccion.rechazada": TransaccionRechazada,
  "webhook.test": WebhookTest
} as const satisfies Record<EventName, Schema.Schema.Any>

/** Any notice Switch sends, discriminated by `evento`. */
export const SwitchEvent = Schema.Union(
  LinkPagado,
  LinkAcreditado,
  LinkDevuelto,
  TransaccionAprobada,
  TransaccionLiquidada,
  TransaccionRechazada,
  WebhookTest
)
export type SwitchEvent = typeof SwitchEvent.Type
