/** `limit` and `offset` of the list routes that page by offset (`GET /lotes`, `GET /eventos`). */
import { ValidationError } from "@switch/api"
import { Either } from "effect"

export interface Page {
  readonly limit: number
  readonly offset: number
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

/** `limit` (default 50, at most 200) and `offset` (default 0) of `GET /lotes`. */
export const parsePage = (params: {
  readonly limit?: string | undefined
  readonly offset?: string | undefined
}): Either.Either<Page, ValidationError> =>
  Either.gen(function* () {
    return {
      limit: yield* integer("limit", params.limit, 50, 1, 200),
      offset: yield* integer("offset", params.offset, 0, 0, 1_000_000)
    }
  })
