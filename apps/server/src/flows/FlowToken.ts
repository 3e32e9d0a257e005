/**
 * `flow_token`, as the merchant's bot writes it when it sends the Flow:
 *
 *   [<flow_secret>~]<orden>[~<monto>~<firma>]
 *
 * - `flow_secret` leads the token unless the request carries it in `x-flow-secret`.
 * - `orden` is the bot's order reference (letters, digits, `_`, `-`; up to 64).
 * - In signed-amount mode `monto` is the order amount (`150.50`) and `firma` is the hex
 *   HMAC-SHA256 of `<orden>~<monto>` with the binding's `monto_secret`.
 *
 * `~` separates the parts: it occurs in no secret, order reference or amount.
 */
import { createHmac } from "node:crypto"
import { Money } from "@switch/core"
import { Either } from "effect"
import { safeEqual } from "./Envelope.js"

export interface FlowToken {
  readonly secret: string | null
  readonly orden: string
  readonly monto: Money.Cents | null
  /** The amount exactly as written in the token: the text that was signed. */
  readonly montoTexto: string | null
  readonly firma: string | null
}

const ORDEN = /^[A-Za-z0-9_-]{1,64}$/

/** Splits a token; `secretInHeader` says whether the secret came in `x-flow-secret` instead. */
export const parse = (token: unknown, secretInHeader: boolean): Either.Either<FlowToken, string> => {
  if (typeof token !== "string" || token.length === 0 || token.length > 512)
    return Either.left("flow_token inválido")
  const parts = token.split("~")
  const secret = secretInHeader ? null : (parts.shift() ?? null)
  const [orden, monto, firma, ...rest] = parts
  if (orden === undefined || !ORDEN.test(orden) || rest.length > 0) return Either.left("flow_token inválido")
  if (monto === undefined) return Either.right({ secret, orden, monto: null, montoTexto: null, firma: null })
  if (firma === undefined || !/^[0-9a-f]{64}$/.test(firma)) return Either.left("flow_token inválido")
  return Either.match(Money.parseDecimal(monto), {
    onLeft: () => Either.left("flow_token inválido"),
    onRight: (cents) =>
      cents > 0
        ? Either.right({ secret, orden, monto: cents, montoTexto: monto, firma })
        : Either.left("flow_token inválido")
  })
}

/** The signature the bot puts on an order's amount, over `<orden>~<monto as written>`. */
export const sign = (montoSecret: string, orden: string, montoTexto: string): string =>
  createHmac("sha256", montoSecret).update(`${orden}~${montoTexto}`).digest("hex")

/** Whether a signed token's amount was signed with `montoSecret`. */
export const verifyAmount = (token: FlowToken, montoSecret: string): boolean =>
  token.montoTexto !== null &&
  token.firma !== null &&
  safeEqual(sign(montoSecret, token.orden, token.montoTexto), token.firma)
