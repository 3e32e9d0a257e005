import { HttpApiError } from "@effect/platform"
import { BadRequest, NotFound, UnprocessableEntity, ValidationError } from "@switch/api"
import { describe, expect, it } from "vitest"
import { answer, decodeFailure } from "./ApiErrors.js"

const bodyOf = (response: ReturnType<typeof answer>) => {
  if (response === undefined || response.body._tag !== "Uint8Array") throw new Error("no JSON body")
  return JSON.parse(new TextDecoder().decode(response.body.body)) as unknown
}

const decodeError = (path: ReadonlyArray<PropertyKey>) =>
  new HttpApiError.HttpApiDecodeError({
    issues: [{ _tag: "Type", path: [...path], message: 'Expected string, actual ["a","b"]' }],
    message: "Expected string"
  })

describe("decodeFailure", () => {
  it("names the parameter the framework could not decode", () => {
    expect(decodeFailure(decodeError(["estado"]), "parameter")).toEqual(
      new ValidationError({
        detail: "El parámetro estado no es válido (¿está repetido?).",
        parametro: "estado"
      })
    )
  })

  it("says the request is not valid when no parameter is named", () => {
    expect(decodeFailure(decodeError([]), "parameter")).toEqual(
      new ValidationError({ detail: "La solicitud no es válida." })
    )
  })
})

describe("decodeFailure of a body", () => {
  it("groups the issues by field with core's Spanish texts", () => {
    const error = new HttpApiError.HttpApiDecodeError({
      issues: [
        { _tag: "Missing", path: ["resultado"], message: "is missing" },
        { _tag: "Unexpected", path: ["nota"], message: "is unexpected" },
        { _tag: "Type", path: ["label"], message: "Expected string, actual 7" }
      ],
      message: "varios"
    })
    expect(decodeFailure(error, "body")).toEqual(
      new ValidationError({
        detail: {
          fieldErrors: {
            resultado: ["es obligatorio"],
            nota: ["campo no permitido"],
            label: ["tipo de dato inválido"]
          }
        }
      })
    )
  })
})

describe("answer", () => {
  it("answers a decode failure as SPEC's 400 validation, without the framework's text", () => {
    const response = answer(decodeError(["limit"]))
    expect(response?.status).toBe(400)
    expect(bodyOf(response)).toEqual({
      error: "validation",
      detail: "El parámetro limit no es válido (¿está repetido?).",
      parametro: "limit"
    })
  })

  it("answers each error with its own class's status, though the code fits another class", () => {
    const over = answer(new UnprocessableEntity({ error: "split_excede_neto", detail: "excede" }))
    expect(over?.status).toBe(422)
    expect(bodyOf(over)).toEqual({ error: "split_excede_neto", detail: "excede" })
    expect(answer(new BadRequest({ error: "split_excede_neto", detail: "excede" }))?.status).toBe(400)
    expect(answer(new NotFound())?.status).toBe(404)
    expect(bodyOf(answer(new NotFound()))).toEqual({ error: "not_found" })
  })

  it("leaves other failures to the framework", () => {
    expect(answer(new Error("otro"))).toBeUndefined()
    expect(answer({ _tag: "RouteNotFound" })).toBeUndefined()
  })
})
