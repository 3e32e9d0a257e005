/**
 * Refunds of a paid link from the portal (issue 33, SPEC's `link.devuelto` pilot): several
 * partial refunds, each up to what is left of the amount paid (the charge plus its tip), in
 * integer cents. Which earlier attempt forbids a new one follows `/reintegro`'s `409`s: one
 * running (`reintegro_en_curso`), one unclear (`reintegro_intento_ambiguo`, never resent
 * blindly), a reversal that already gave the money back (`reintegro_ya_pagado`). Refunds the bank
 * rejected without moving money count for nothing.
 */
import { Either } from "effect"
import * as Money from "./Money.js"
import type { MotivoRechazo } from "./Resultado.js"

/** How an earlier return of the charge stands, as far as a new refund is concerned. */
export type Situacion = "en_curso" | "pagado" | "ambiguo" | "rechazado"

export interface Anterior {
  readonly tipo: "devolucion" | "reverso"
  readonly monto: Money.Cents
  readonly situacion: Situacion
}

/** Bank answers after which nobody can say whether money moved (SPEC: `reintegro_intento_ambiguo`). */
export const TECNICOS: ReadonlyArray<MotivoRechazo> = ["RECHAZO_TECNICO", "DESCONOCIDO", "PENDIENTE_BCV"]

/** An operation's state, phase and rejection reason as a {@link Situacion}. */
export const situacion = (estado: string, fase: string | null, motivo: MotivoRechazo | null): Situacion => {
  if (fase === "enviando") return "en_curso"
  if (estado === "LIQUIDADA") return "pagado"
  if (estado === "RECHAZADA") return motivo !== null && TECNICOS.includes(motivo) ? "ambiguo" : "rechazado"
  return "ambiguo"
}

export type Negativa =
  | { readonly error: "reintegro_en_curso"; readonly detail: string }
  | { readonly error: "reintegro_intento_ambiguo"; readonly detail: string }
  | { readonly error: "reintegro_ya_pagado"; readonly detail: string }
  | { readonly error: "monto_excede_disponible"; readonly detail: string; readonly disponible: Money.Cents }

/** What has gone back to the payer already (refunds and reversals the bank paid). */
export const devuelto = (anteriores: ReadonlyArray<Anterior>): Money.Cents =>
  Money.sum(anteriores.filter((a) => a.situacion === "pagado").map((a) => a.monto))

/**
 * How a paid link reads once money went back to the payer (issue 45): SPEC keeps its `estado`
 * `pagado`, and the portal shows "Reembolsado" when everything paid went back, "Reembolsado
 * parcialmente" when part of it did; null when nothing did.
 */
export type EstadoReembolso = "reembolsado" | "reembolsado_parcial"

/** The refund state of a charge that paid `pagado` of which `devuelto` went back. */
export const estadoDe = (pagado: Money.Cents, devuelto: Money.Cents): EstadoReembolso | null =>
  devuelto <= 0 ? null : devuelto >= pagado ? "reembolsado" : "reembolsado_parcial"

/** What may still be refunded: the amount paid minus what went back; never below zero. */
export const disponible = (pagado: Money.Cents, anteriores: ReadonlyArray<Anterior>): Money.Cents => {
  const left = pagado - devuelto(anteriores)
  return Money.Cents(Math.max(left, 0))
}

/**
 * May a refund of `monto` (positive cents) of a charge that paid `pagado` be sent now, after
 * `anteriores`? The amount to send, or why not.
 */
export const decidir = (
  pagado: Money.Cents,
  anteriores: ReadonlyArray<Anterior>,
  monto: Money.Cents
): Either.Either<Money.Cents, Negativa> => {
  if (anteriores.some((a) => a.situacion === "en_curso"))
    return Either.left({
      error: "reintegro_en_curso",
      detail: "Hay un reembolso de este cobro en curso; espera su resultado."
    })
  if (anteriores.some((a) => a.situacion === "ambiguo"))
    return Either.left({
      error: "reintegro_intento_ambiguo",
      detail: "El banco no dio una respuesta clara a un reembolso anterior; un operador lo está revisando."
    })
  if (anteriores.some((a) => a.tipo === "reverso" && a.situacion === "pagado"))
    return Either.left({
      error: "reintegro_ya_pagado",
      detail: "Un reverso ya devolvió todo el dinero de este cobro."
    })
  const left = disponible(pagado, anteriores)
  if (left <= 0)
    return Either.left({
      error: "reintegro_ya_pagado",
      detail: "Ya se devolvió todo lo pagado por este cobro."
    })
  if (monto <= 0 || monto > left)
    return Either.left({
      error: "monto_excede_disponible",
      detail: `El monto supera lo que queda por devolver (${Money.format(left)}).`,
      disponible: left
    })
  return Either.right(monto)
}
