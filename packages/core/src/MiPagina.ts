/**
 * The merchant's own payment page ("mi página", `{base_url}/p/<codigo>`): the payer types the
 * amount (and a concept when the merchant allows it) and pays as on any link; the link made has
 * `origen` `mi_pagina`. These are its pure rules: the merchant's settings, what the payer typed,
 * and the creation limits that keep anyone from flooding a merchant with links.
 */
import { Either } from "effect"
import * as Money from "./Money.js"
import type { Policy } from "./RateLimit.js"
import * as Validation from "./Validation.js"

/** The page's settings, as the owner sets them in the portal. */
export interface Ajustes {
  readonly activa: boolean
  readonly montoMin: Money.Cents
  readonly montoMax: Money.Cents
  readonly conceptoPermitido: boolean
}

/** A new page's settings: off, from Bs 1,00 to Bs 10.000,00, no concept. */
export const AJUSTES_INICIALES: Ajustes = {
  activa: false,
  montoMin: Money.Cents(100),
  montoMax: Money.Cents(1_000_000),
  conceptoPermitido: false
}

/** A concept the payer types: up to 140 characters, as a link's. */
export const CONCEPTO_MAX = 140

/** The settings body (`PUT /switch/v1/mi-pagina`): amounts as the API's numbers, in Bs. */
export interface AjustesBody {
  readonly activa: boolean
  readonly monto_min: number
  readonly monto_max: number
  readonly concepto_permitido: boolean
}

/** Checks the settings: both amounts over 0 with 2 decimals, the minimum not over the maximum. */
export const decodeAjustes = (body: AjustesBody): Either.Either<Ajustes, Validation.FieldErrors> => {
  const min = Money.fromPositiveNumber(body.monto_min)
  const max = Money.fromPositiveNumber(body.monto_max)
  const issues: Array<Validation.Issue> = []
  if (Either.isLeft(min))
    issues.push({ _tag: "Type", path: ["monto_min"], message: Money.issueMessage[min.left] })
  if (Either.isLeft(max))
    issues.push({ _tag: "Type", path: ["monto_max"], message: Money.issueMessage[max.left] })
  if (Either.isRight(min) && Either.isRight(max) && min.right > max.right)
    issues.push({ _tag: "Type", path: ["monto_max"], message: "debe ser mayor o igual que monto_min" })
  if (issues.length > 0 || Either.isLeft(min) || Either.isLeft(max))
    return Either.left(Validation.fieldErrorsOf(issues))
  return Either.right({
    activa: body.activa,
    montoMin: min.right,
    montoMax: max.right,
    conceptoPermitido: body.concepto_permitido
  })
}

/** What the payer typed on the page: the amount as written in Venezuela, and maybe a concept. */
export interface Entrada {
  readonly monto: string
  readonly concepto?: string | undefined
}

/** A payer's request, checked: the link's amount, and the concept when the merchant allows one. */
export interface Pago {
  readonly monto: Money.Cents
  readonly concepto: string | null
}

/** Control characters (and NUL) never reach a link's concept. */
const CONTROL = /\p{Cc}/gu

/** The payer's concept: trimmed, spaces folded, control characters removed; empty is none. */
export const limpiarConcepto = (text: string): string =>
  text.replace(CONTROL, " ").replace(/\s+/g, " ").trim()

/**
 * Checks what the payer typed against the settings, with Spanish messages for the page: the
 * amount (`1.234,56`, `1234,56` or `1234.56`) between the minimum and the maximum, both
 * included; the concept only when allowed (otherwise ignored), up to {@link CONCEPTO_MAX}.
 */
export const decodeEntrada = (
  entrada: Entrada,
  ajustes: Ajustes
): Either.Either<Pago, Validation.FieldErrors> => {
  const issues: Array<Validation.Issue> = []
  const written = entrada.monto.trim()
  let monto: Money.Cents | undefined
  if (written === "") issues.push({ _tag: "Type", path: ["monto"], message: "Escribe el monto a pagar." })
  else {
    const parsed = Money.parseVenezuelan(written)
    if (Either.isLeft(parsed))
      issues.push({
        _tag: "Type",
        path: ["monto"],
        message: "Escribe el monto en bolívares, por ejemplo 1.234,56."
      })
    else if (parsed.right < ajustes.montoMin)
      issues.push({
        _tag: "Type",
        path: ["monto"],
        message: `El monto mínimo es ${Money.format(ajustes.montoMin)}.`
      })
    else if (parsed.right > ajustes.montoMax)
      issues.push({
        _tag: "Type",
        path: ["monto"],
        message: `El monto máximo es ${Money.format(ajustes.montoMax)}.`
      })
    else monto = parsed.right
  }
  let concepto: string | null = null
  if (ajustes.conceptoPermitido && entrada.concepto !== undefined) {
    const clean = limpiarConcepto(entrada.concepto)
    if ([...clean].length > CONCEPTO_MAX)
      issues.push({
        _tag: "Type",
        path: ["concepto"],
        message: `El concepto admite hasta ${CONCEPTO_MAX} caracteres.`
      })
    else if (clean !== "") concepto = clean
  }
  if (issues.length > 0 || monto === undefined) return Either.left(Validation.fieldErrorsOf(issues))
  return Either.right({ monto, concepto })
}

/** The concept of the link a page makes: the payer's, else "Pago a <merchant>" (at most 140). */
export const conceptoDelLink = (pago: Pago, comercio: string): string =>
  pago.concepto ?? [...`Pago a ${limpiarConcepto(comercio)}`].slice(0, CONCEPTO_MAX).join("")

/** Links a page makes: 10 per 10 minutes from one client address. */
export const CREAR_POR_IP: Policy = {
  name: "mi_pagina_ip",
  limit: 10,
  windowSeconds: 600,
  scope: "ip",
  liveOnly: false
}

/**
 * Links a page makes for one merchant, whoever asks: 25 per 5 minutes (300 an hour). The page
 * faces payers, so its window is short: a flood from many addresses closes it for at most 5
 * minutes, where an hour's window of 300 closed it for up to an hour.
 */
export const CREAR_POR_COMERCIO: Policy = {
  name: "mi_pagina_comercio_5m",
  limit: 25,
  windowSeconds: 300,
  scope: "merchant",
  liveOnly: false
}

/** Hours a link made by the page stays open: the payer pays right away. */
export const EXPIRA_HORAS = 1
