/**
 * `limit`, `offset` and the `starting_after` cursor of the list routes (`GET /lotes`,
 * `GET /eventos`, `GET /transacciones`): a page after the cursor's item costs what the first
 * does; `offset` keeps working.
 */
import { ValidationError } from "@switch/api"
import { Either } from "effect"

export interface Page {
  readonly limit: number
  readonly offset: number
  /** The id of the last item of the page before (an event's without its `evt_`), or null. */
  readonly startingAfter: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `starting_after`: an item's id (`evt_` allowed before an event's), else `400` naming it. */
export const parseCursor = (text: string | undefined): Either.Either<string | null, ValidationError> => {
  if (text === undefined || text === "") return Either.right(null)
  const id = text.replace(/^evt_/, "")
  return UUID.test(id)
    ? Either.right(id.toLowerCase())
    : Either.left(
        new ValidationError({
          parametro: "starting_after",
          detail: "starting_after debe ser el id del último elemento de la página anterior"
        })
      )
}

const integer = (parametro: string, text: string | undefined, fallback: number, min: number, max: number) => {
  if (text === undefined || text === "") return Either.right(fallback)
  const n = Number(text)
  return /^\d+$/.test(text) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(
        new ValidationError({ parametro, detail: `${parametro} debe ser un entero entre ${min} y ${max}` })
      )
}

/** `limit` (default 50, at most 200), `offset` (default 0) and `starting_after`. */
export const parsePage = (params: {
  readonly limit?: string | undefined
  readonly offset?: string | undefined
  readonly starting_after?: string | undefined
}): Either.Either<Page, ValidationError> =>
  Either.gen(function* () {
    return {
      limit: yield* integer("limit", params.limit, 50, 1, 200),
      offset: yield* integer("offset", params.offset, 0, 0, 1_000_000),
      startingAfter: yield* parseCursor(params.starting_after)
    }
  })
