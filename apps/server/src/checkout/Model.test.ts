/** The page's refusals are the API's error classes, answered with the bodies the page always sent. */
import { BankCalendar, Caps, Money, RateLimit, Resultado } from "@switch/core"
import { describe, expect, it } from "vitest"
import { byOwnClass } from "../http/ApiErrors.js"
import {
  bankClosed,
  capExceeded,
  codeRefused,
  noAccount,
  notFound,
  type PageError,
  rateUnavailable,
  suspended,
  tooManyCodes,
  unavailable,
  validation
} from "./Model.js"

const answered = (e: PageError) => {
  const response = byOwnClass(e)
  if (response.body._tag !== "Uint8Array") throw new Error("no JSON body")
  return {
    status: response.status,
    body: JSON.parse(new TextDecoder().decode(response.body.body)) as unknown
  }
}

describe("the page's refusals", () => {
  it("answer with SPEC's status and body", () => {
    const motivo = "Este comercio no puede recibir pagos en este momento."
    expect(answered(notFound)).toEqual({ status: 404, body: { error: "not_found" } })
    expect(answered(unavailable("pagado"))).toEqual({
      status: 409,
      body: { error: "link_no_disponible", estado: "pagado", detail: "Este link ya no admite pagos." }
    })
    expect(answered(suspended)).toEqual({ status: 403, body: { error: "comercio_suspendido", motivo } })
    expect(answered(noAccount)).toEqual({ status: 409, body: { error: "comercio_sin_cuenta", motivo } })
    expect(answered(rateUnavailable)).toEqual({
      status: 503,
      body: { error: "tasa_no_disponible", motivo: Caps.MOTIVO_TASA_NO_DISPONIBLE }
    })
    expect(answered(validation({ fieldErrors: { propina: ["no"] } }))).toEqual({
      status: 400,
      body: { error: "validation", detail: { fieldErrors: { propina: ["no"] } } }
    })
    expect(answered(bankClosed(120))).toEqual({
      status: 503,
      body: { error: "cierre_bancario", motivo: BankCalendar.MOTIVO_CIERRE, reintentar_en: 120 }
    })
    expect(answered(tooManyCodes(30))).toEqual({
      status: 429,
      body: { error: "demasiadas_solicitudes", detail: RateLimit.esperaMensaje(30), reintentar_en: 30 }
    })
    expect(answered(codeRefused("SALDO_INSUFICIENTE"))).toEqual({
      status: 422,
      body: {
        error: "codigo_rechazado",
        motivo_rechazo: "SALDO_INSUFICIENTE",
        motivo: Resultado.motivoParaPagador.SALDO_INSUFICIENTE
      }
    })
  })

  it("show the payer a cap refusal without the merchant's figures", () => {
    const refusal: Caps.CapRefusal = {
      error: "tope_diario_excedido",
      motivo: "Se alcanzó el tope diario.",
      tope: Money.Cents(100_000),
      usado: Money.Cents(90_000)
    }
    expect(answered(capExceeded(refusal))).toEqual({
      status: 409,
      body: { error: "tope_diario_excedido", motivo: "Se alcanzó el tope diario." }
    })
  })
})
