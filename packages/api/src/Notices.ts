/**
 * The webhook notices as `/openapi.json` documents them (OpenAPI 3.1 `webhooks`): each event's
 * envelope schema (from Events.ts, the one source), a summary, the headers every delivery
 * carries (DESIGN §5 and §8) and an example.
 */
import type { Schema } from "effect"
import * as Events from "./Events.js"
import type { EventName } from "./Webhooks.js"

const linkPagado = {
  link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
  monto: 150.5,
  propina: 0,
  total: 150.5,
  mode: "test",
  referencia: "SIMULADO",
  txn_id: "e1b38077-e62f-43f7-8313-261e353fe600",
  codigo_verificacion: "SW-YHD5J-7MYQF",
  pagador: { alta_cliente: false }
}
const transaccion = {
  id: "67c3b185-fd96-4500-9835-6cdbbc00bae6",
  operacion: "cobro",
  estado: "LIQUIDADA",
  monto: 75.25,
  moneda: "VES",
  concepto: "Pedido 881",
  referencia_banco: "PR773711720",
  endtoend: null,
  motivo_rechazo: null,
  intentos: 1,
  mode: "live"
}

/** One documented notice: its event, envelope schema, summary and example. */
export interface Notice {
  readonly evento: EventName
  /** The envelope's name among the document's schemas. */
  readonly identifier: string
  readonly schema: Schema.Schema.Any
  readonly summary: string
  readonly example: unknown
}

const at = "2026-03-02T15:04:05.000Z"
const example = (evento: EventName, data: unknown) => ({
  id: "evt_69a0c9b4-fa95-4f47-807a-1d6907506714",
  evento,
  creado_en: at,
  data
})

/** Every notice Switch sends, as the `webhooks` section documents them. */
export const notices: ReadonlyArray<Notice> = [
  {
    evento: "link.pagado",
    identifier: "AvisoLinkPagado",
    schema: Events.Envelopes["link.pagado"],
    summary: "El banco confirmó el pago de un link (una vez por link)",
    example: example("link.pagado", linkPagado)
  },
  {
    evento: "link.acreditado",
    identifier: "AvisoLinkAcreditado",
    schema: Events.Envelopes["link.acreditado"],
    summary: "El neto de un link pagado llegó a la cuenta del comercio",
    example: example("link.acreditado", {
      link_id: linkPagado.link_id,
      monto_acreditado: 148.99,
      liquidacion_txn_id: "0b0a1b0c-5d95-498c-b948-66cb68f87e2a",
      reparto: null,
      mode: "test"
    })
  },
  {
    evento: "link.devuelto",
    identifier: "AvisoLinkDevuelto",
    schema: Events.Envelopes["link.devuelto"],
    summary: "Una devolución desde el portal llegó al pagador (piloto)",
    example: example("link.devuelto", {
      link_id: linkPagado.link_id,
      monto: 50,
      monto_devuelto: 50,
      mode: "live"
    })
  },
  {
    evento: "transaccion.aprobada",
    identifier: "AvisoTransaccionAprobada",
    schema: Events.Envelopes["transaccion.aprobada"],
    summary: "La operación quedó LIQUIDADA (una vez, junto con transaccion.liquidada)",
    example: example("transaccion.aprobada", transaccion)
  },
  {
    evento: "transaccion.liquidada",
    identifier: "AvisoTransaccionLiquidada",
    schema: Events.Envelopes["transaccion.liquidada"],
    summary: "La operación se liquidó; entregue bienes solo si operacion es cobro",
    example: example("transaccion.liquidada", transaccion)
  },
  {
    evento: "transaccion.rechazada",
    identifier: "AvisoTransaccionRechazada",
    schema: Events.Envelopes["transaccion.rechazada"],
    summary: "La operación fue rechazada",
    example: example("transaccion.rechazada", {
      ...transaccion,
      estado: "RECHAZADA",
      referencia_banco: null,
      motivo_rechazo: "SALDO_INSUFICIENTE"
    })
  },
  {
    evento: "webhook.test",
    identifier: "AvisoWebhookTest",
    schema: Events.Envelopes["webhook.test"],
    summary: "Aviso de prueba del portal, con las mismas firmas que los reales",
    example: example("webhook.test", {
      webhook_id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
      mode: "test",
      mensaje: "Aviso de prueba de Switch"
    })
  }
]

const header = (name: string, description: string, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example
})

/** The headers of every delivery (DESIGN §5 and §8). */
export const noticeHeaders = [
  header("x-service-event", "El nombre del aviso", "link.pagado"),
  header(
    "x-service-delivery",
    "Id de la entrega, igual en cada reintento: deduplique con él",
    "d8925440-cac4-4263-844a-f39c06de4300"
  ),
  header("x-service-timestamp", "Segundos Unix del intento", "1772463845"),
  header(
    "x-service-signature",
    "`sha256=` + HMAC-SHA256 hex del cuerpo con el secreto",
    "sha256=3207aaf6953219910cabcf3d90ec51a3eafb1a02ed99cf32e1d1cba4e54ee2bd"
  ),
  header(
    "x-service-signature-v2",
    '`t=<timestamp>,v1=<HMAC-SHA256 hex de "<timestamp>.<cuerpo>">`',
    "t=1772463845,v1=5e0c5b7d3f1a2b4c6d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c"
  ),
  header(
    "webhook-id",
    "Standard Webhooks: el id de la entrega (como x-service-delivery)",
    "d8925440-cac4-4263-844a-f39c06de4300"
  ),
  header("webhook-timestamp", "Standard Webhooks: segundos Unix del intento", "1772463845"),
  header(
    "webhook-signature",
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 de "<id>.<timestamp>.<cuerpo>">` con los bytes del secreto `whsec_<base64>`',
    "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
  )
]

/** The OpenAPI 3.1 `webhooks` section; the envelopes are among the document's schemas. */
export const webhooksSection = (): Record<string, unknown> =>
  Object.fromEntries(
    notices.map((notice) => [
      notice.evento,
      {
        post: {
          summary: notice.summary,
          operationId: `aviso.${notice.evento}`,
          tags: ["Avisos (webhooks)"],
          parameters: noticeHeaders,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { $ref: `#/components/schemas/${notice.identifier}` },
                example: notice.example
              }
            }
          },
          responses: {
            "200": {
              description:
                "Cualquier 2xx confirma la entrega; otra respuesta, o ninguna en 10 s, se reintenta"
            }
          }
        }
      }
    ])
  )
