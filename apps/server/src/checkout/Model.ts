/** What the payment page's service shows and answers: its models, refusals and bank parties. */
import { type BankCalendar, Caps, type LinkMachine, type Ports, type Resultado } from "@switch/core"
import type { Option } from "effect"
import type { MerchantRow } from "../platform/Merchants.js"
import type { Payer } from "./Input.js"
import type { CheckoutLink } from "./Settle.js"

/** A refusal the page shows: HTTP status, SPEC-shaped body, and `Retry-After` when waiting helps. */
export class PageError {
  readonly _tag = "PageError"
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly retryAfter?: number
  ) {}
}

/** How long a second submission waits for the first one's bank answer. */
export const BANK_WINDOW_MS = 35_000
/** A rejection is shown on reopening the page for this long. */
export const REJECTION_SHOWN_MS = 15 * 60_000

export interface LastAttempt {
  readonly id: string
  readonly estado: string
  readonly motivo_rechazo: Resultado.MotivoRechazo | null
  readonly created_at: Date
  readonly actualizado_at: Date
  readonly huella: string | null
}

export interface PageModel {
  readonly link: CheckoutLink
  readonly merchant: MerchantRow
  readonly estado: LinkMachine.LinkState
  readonly last: Option.Option<LastAttempt>
  readonly at: Date
  readonly cierre: BankCalendar.BankCloseStatus
}

export interface Status {
  readonly estado: LinkMachine.LinkState
  readonly motivo?: string
  readonly desde?: number
}

export type PayReply =
  | { readonly estado: "pagado"; readonly referencia: string; readonly codigo_verificacion: string }
  | { readonly estado: "procesando" }
  | {
      readonly estado: "rechazado"
      readonly motivo_rechazo: Resultado.MotivoRechazo
      readonly motivo: string
    }
  | { readonly estado: LinkMachine.LinkState }

export const notFound = new PageError(404, { error: "not_found" })
export const unavailable = (estado: string) =>
  new PageError(409, { error: "link_no_disponible", estado, detail: "Este link ya no admite pagos." })
export const suspended = new PageError(403, {
  error: "comercio_suspendido",
  motivo: "Este comercio no puede recibir pagos en este momento."
})
/** A live payment to a merchant with no settlement account on record never reaches the bank. */
export const noAccount = new PageError(409, {
  error: "comercio_sin_cuenta",
  motivo: "Este comercio no puede recibir pagos en este momento."
})

/** A dollar limit in force and no usable BCV rate: nothing is asked of the bank (platform/Limits.ts). */
export const rateUnavailable = new PageError(503, {
  error: "tasa_no_disponible",
  motivo: Caps.MOTIVO_TASA_NO_DISPONIBLE
})
export const validation = (detail: unknown) => new PageError(400, { error: "validation", detail })

/** The merchant as the bank sees it; a test payment may go without a settlement account. */
export const party = (merchant: MerchantRow & { identificacion?: string }): Ports.Party =>
  merchant.cuenta_liquidacion ?? {
    tipo: "cuenta",
    valor: "",
    banco: "0000",
    identificacion: merchant.identificacion ?? "",
    nombre: merchant.nombre.slice(0, 40)
  }

export const payerParty = (payer: Payer, nombre: string | null): Ports.Party => ({
  tipo: "telefono",
  valor: payer.telefono,
  banco: payer.banco,
  identificacion: `${payer.tipo_doc}${payer.identificacion}`,
  tipo_doc: payer.tipo_doc,
  nombre: (nombre ?? "Pagador").slice(0, 40)
})
