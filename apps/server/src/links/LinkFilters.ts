/**
 * `GET /links` filters: each parameter checked on its own, so a bad one answers
 * `400 validation` naming it in `parametro` with a text `detail`.
 */
import { ValidationError } from "@switch/api"
import { BankCalendar, LinkMachine, LinkRequest, Money, type Reembolso } from "@switch/core"
import { Either } from "effect"
import { isUuid } from "../platform/Uuid.js"

export interface LinkFilters {
  readonly estados: ReadonlyArray<LinkMachine.LinkState> | null
  readonly desde: Date | null
  readonly hasta: Date | null
  readonly palabras: ReadonlyArray<string>
  readonly min: number | null
  readonly max: number | null
  readonly conPropina: boolean | null
  readonly mode: "test" | "live" | null
  readonly origen: string | null
  readonly reembolso: Reembolso.EstadoReembolso | null
  readonly limit: number
  readonly offset: number
  readonly startingAfter: string | null
  readonly orden: Orden
}

/**
 * The list's order (`orden`): newest first by default; oldest first; or by amount, largest or
 * smallest first (ties newest first). A cursor (`starting_after`) follows the default order only.
 */
export const ORDENES = ["reciente", "antiguo", "monto_desc", "monto_asc"] as const
export type Orden = (typeof ORDENES)[number]

const ORIGENES = LinkRequest.Origenes

type Params = Readonly<Record<string, string | undefined>>

const invalid = (parametro: string, detail: string) => Either.left(new ValidationError({ parametro, detail }))

const amount = (parametro: string, text: string | undefined) => {
  if (text === undefined || text === "") return Either.right(null)
  return Either.match(Money.parseDecimal(text), {
    onLeft: () => invalid(parametro, `${parametro} debe ser un número de 0 o más, con hasta 2 decimales`),
    onRight: (cents) =>
      cents < 0
        ? invalid(parametro, `${parametro} no puede ser negativo`)
        : Either.right<number | null>(cents)
  })
}

const instant = (parametro: string, text: string | undefined) => {
  if (text === undefined || text === "") return Either.right(null)
  return Either.match(BankCalendar.parseFilterInstant(text), {
    onLeft: (why) => invalid(parametro, `${parametro} debe ser una fecha ISO 8601 o milisegundos: ${why}`),
    onRight: (date) => Either.right<Date | null>(date)
  })
}

const integer = (parametro: string, text: string | undefined, fallback: number, min: number, max: number) => {
  if (text === undefined || text === "") return Either.right(fallback)
  const n = Number(text)
  return /^\d+$/.test(text) && n >= min && n <= max
    ? Either.right(n)
    : invalid(parametro, `${parametro} debe ser un entero entre ${min} y ${max}`)
}

/** `starting_after`: a link's id, the last one of the page before. */
const cursor = (text: string | undefined) => {
  if (text === undefined || text === "") return Either.right(null)
  return isUuid(text)
    ? Either.right<string | null>(text.toLowerCase())
    : invalid("starting_after", "starting_after debe ser el id de un link (el último de la página anterior)")
}

/** Splits `q` into normalised words (accents and case removed), every one of which must match. */
export const words = (q: string): ReadonlyArray<string> =>
  q
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)

/** Reads the query parameters of `GET /links`. */
export const parseLinkFilters = (params: Params): Either.Either<LinkFilters, ValidationError> =>
  Either.gen(function* () {
    const estadoText = params.estado
    const estados =
      estadoText === undefined || estadoText === ""
        ? null
        : estadoText
            .split(",")
            .map((s) => s.trim())
            .filter((s): s is LinkMachine.LinkState =>
              (LinkMachine.LinkStates as ReadonlyArray<string>).includes(s)
            )
    const q = params.q ?? ""
    // Characters as a person counts them (code points), as `concepto` counts them.
    if ([...q].length > 80) return yield* invalid("q", "q admite como máximo 80 caracteres")
    if (q.includes("\u0000")) return yield* invalid("q", "q contiene un carácter no permitido")
    const conPropinaText = params.con_propina
    if (conPropinaText !== undefined && conPropinaText !== "true" && conPropinaText !== "false") {
      return yield* invalid("con_propina", "con_propina debe ser true o false")
    }
    const mode = params.mode
    if (mode !== undefined && mode !== "test" && mode !== "live") {
      return yield* invalid("mode", "mode debe ser test o live")
    }
    const origen = params.origen
    if (origen !== undefined && !(ORIGENES as ReadonlyArray<string>).includes(origen)) {
      return yield* invalid("origen", `origen debe ser uno de: ${ORIGENES.join(", ")}`)
    }
    const reembolso = params.reembolso
    if (
      reembolso !== undefined &&
      reembolso !== "" &&
      reembolso !== "reembolsado" &&
      reembolso !== "reembolsado_parcial"
    ) {
      return yield* invalid("reembolso", "reembolso debe ser reembolsado o reembolsado_parcial")
    }
    const min = yield* amount("min", params.min)
    const max = yield* amount("max", params.max)
    const orden = params.orden === undefined || params.orden === "" ? "reciente" : params.orden
    if (!(ORDENES as ReadonlyArray<string>).includes(orden))
      return yield* invalid("orden", `orden debe ser uno de: ${ORDENES.join(", ")}`)
    const startingAfter = yield* cursor(params.starting_after)
    if (startingAfter !== null && orden !== "reciente")
      return yield* invalid(
        "starting_after",
        "starting_after solo sigue el orden reciente; usa offset con otro orden"
      )
    return {
      // Only unknown values: "an unknown value is ignored", so no estado filter remains.
      estados: estados === null || estados.length === 0 ? null : estados,
      desde: yield* instant("desde", params.desde),
      hasta: yield* instant("hasta", params.hasta),
      palabras: words(q),
      min,
      max,
      conPropina: conPropinaText === undefined ? null : conPropinaText === "true",
      mode: mode ?? null,
      origen: origen ?? null,
      reembolso: reembolso === undefined || reembolso === "" ? null : reembolso,
      limit: yield* integer("limit", params.limit, 50, 1, 200),
      offset: yield* integer("offset", params.offset, 0, 0, 1_000_000),
      startingAfter,
      orden: orden as Orden
    }
  })
