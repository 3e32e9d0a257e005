/**
 * The filters and orders the money lists share (transactions, settlements): read from the
 * query string, each malformed one a `400 validation` naming it. The lists' own statements
 * (recibos/TransaccionesQuery.ts, liquidaciones/LiquidacionesApi.ts) apply them.
 */
import { ValidationError } from "@switch/api"
import { BankCalendar, Money } from "@switch/core"
import { Effect, Either } from "effect"

export interface TxnFilters {
  readonly estado: string | null
  readonly operacion: string | null
  readonly desde: Date | null
  readonly hasta: Date | null
  /** The search, lower case: an id's start, or part of a bank reference or a receipt code. */
  readonly q: string | null
  /** The amount range in cents, both included. */
  readonly min: number | null
  readonly max: number | null
}

const invalid = (parametro: string, detail: string) => Effect.fail(new ValidationError({ parametro, detail }))

const word = (parametro: string, text: string | undefined, pattern: RegExp, shape: string) => {
  if (text === undefined || text === "") return Effect.succeed(null)
  return pattern.test(text) ? Effect.succeed(text) : invalid(parametro, `${parametro} debe ser ${shape}`)
}

const amount = (parametro: string, text: string | undefined) => {
  if (text === undefined || text === "") return Effect.succeed(null)
  return Either.match(Money.parseDecimal(text), {
    onLeft: () => invalid(parametro, `${parametro} debe ser un número de 0 o más, con hasta 2 decimales`),
    onRight: (cents) =>
      cents < 0
        ? invalid(parametro, `${parametro} no puede ser negativo`)
        : Effect.succeed<number | null>(cents)
  })
}

const search = (text: string | undefined) => {
  const q = (text ?? "").trim().toLowerCase()
  if (q === "") return Effect.succeed(null)
  if ([...q].length > 80) return invalid("q", "q admite como máximo 80 caracteres")
  if (q.includes("\u0000")) return invalid("q", "q contiene un carácter no permitido")
  return Effect.succeed<string | null>(q)
}

const instant = (parametro: string, text: string | undefined) => {
  if (text === undefined || text === "") return Effect.succeed(null)
  return Either.match(BankCalendar.parseFilterInstant(text), {
    onLeft: (why) => invalid(parametro, `${parametro} debe ser una fecha ISO 8601 o milisegundos: ${why}`),
    onRight: (date) => Effect.succeed<Date | null>(date)
  })
}

/** Reads the filters; a malformed one is `400 validation` naming it. */
export const parseTxnFilters = (params: {
  readonly estado?: string | undefined
  readonly operacion?: string | undefined
  readonly desde?: string | undefined
  readonly hasta?: string | undefined
  readonly q?: string | undefined
  readonly min?: string | undefined
  readonly max?: string | undefined
}) =>
  Effect.gen(function* () {
    const filters: TxnFilters = {
      estado: yield* word(
        "estado",
        params.estado,
        /^[A-Z_]{1,24}$/,
        "un estado en mayúsculas, p. ej. LIQUIDADA"
      ),
      operacion: yield* word("operacion", params.operacion, /^[a-z_]{1,24}$/, "una operación, p. ej. cobro"),
      desde: yield* instant("desde", params.desde),
      hasta: yield* instant("hasta", params.hasta),
      q: yield* search(params.q),
      min: yield* amount("min", params.min),
      max: yield* amount("max", params.max)
    }
    if (filters.desde !== null && filters.hasta !== null && filters.desde > filters.hasta)
      return yield* invalid("hasta", "hasta debe ser igual o posterior a desde")
    return filters
  })

/** The list's orders (`orden`), each ending on the id so pages never overlap. */
export const TXN_ORDER_BY = {
  reciente: "created_at desc, id desc",
  antiguo: "created_at asc, id asc",
  monto_desc: "monto desc, created_at desc, id desc",
  monto_asc: "monto asc, created_at desc, id desc"
} as const
export type TxnOrden = keyof typeof TXN_ORDER_BY

/** Reads `orden` (newest first when absent); a cursor follows only that default order. */
export const parseTxnOrden = (text: string | undefined, withCursor: boolean) => {
  const orden = text === undefined || text === "" ? "reciente" : text
  if (!Object.hasOwn(TXN_ORDER_BY, orden))
    return invalid("orden", `orden debe ser uno de: ${Object.keys(TXN_ORDER_BY).join(", ")}`)
  if (withCursor && orden !== "reciente")
    return invalid("starting_after", "starting_after solo sigue el orden reciente; usa offset con otro orden")
  return Effect.succeed(orden as TxnOrden)
}
