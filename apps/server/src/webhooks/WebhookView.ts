/** Rows of `webhooks` and `webhook_entregas` as the API shows them (never the secret). */
import type { Mode, Webhooks } from "@switch/api"

export interface WebhookRow {
  readonly id: string
  readonly url: string
  readonly eventos: ReadonlyArray<string>
  readonly estado: "activo" | "inactivo"
  readonly created_at: Date
  readonly updated_at: Date
}

export const webhookView = (row: WebhookRow): Webhooks.Webhook => ({
  id: row.id,
  url: row.url,
  eventos: row.eventos,
  estado: row.estado,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

export interface DeliveryRow {
  readonly id: string
  readonly webhook_id: string
  readonly evento_id: string | null
  readonly evento: string
  readonly mode: Mode
  readonly cuerpo: string
  readonly estado: Webhooks.WebhookDelivery["estado"]
  readonly intentos: number
  readonly proximo_intento: Date | null
  readonly codigo_http: number | null
  readonly error: string | null
  readonly created_at: Date
  readonly entregado_at: Date | null
}

/** The notice's own id (`evt_...`), read from the body it carries. */
const eventId = (row: DeliveryRow): string => {
  if (row.evento_id !== null) return `evt_${row.evento_id}`
  try {
    return String((JSON.parse(row.cuerpo) as { id?: unknown }).id ?? "")
  } catch {
    return ""
  }
}

export const deliveryView = (row: DeliveryRow): Webhooks.WebhookDelivery => ({
  id: row.id,
  webhook_id: row.webhook_id,
  evento_id: eventId(row),
  evento: row.evento,
  mode: row.mode,
  estado: row.estado,
  intentos: row.intentos,
  proximo_intento: row.proximo_intento?.toISOString() ?? null,
  codigo_http: row.codigo_http,
  error: row.error,
  created_at: row.created_at.toISOString(),
  entregado_at: row.entregado_at?.toISOString() ?? null
})
