/**
 * Schemas that read API numbers into {@link Money.Cents} and the direct API's amount object.
 * The encoded side stays a JSON number, so OpenAPI shows `number` and responses print `150.5`.
 */
import { Either, ParseResult, Schema } from "effect"
import * as Money from "./Money.js"

const CentsBrand = Schema.Number.pipe(Schema.int(), Schema.brand("Cents"))

const amountFrom = (read: (n: number) => Either.Either<Money.Cents, Money.MoneyIssue>, description: string) =>
  Schema.transformOrFail(Schema.Number.annotations({ message: () => "debe ser un número" }), CentsBrand, {
    strict: true,
    decode: (n, _, ast) =>
      Either.match(read(n), {
        onLeft: (issue) => ParseResult.fail(new ParseResult.Type(ast, n, Money.issueMessage[issue])),
        onRight: (cents) => ParseResult.succeed(cents)
      }),
    encode: (cents) => ParseResult.succeed(Money.toNumber(Money.Cents(cents)))
  }).annotations({ description })

/** `monto`: greater than 0, at most 2 decimals, in bolivars. */
export const PositiveAmount = amountFrom(Money.fromPositiveNumber, "Monto mayor que 0, con hasta 2 decimales")

/** The direct API's amount object: `{ valor, moneda? }`, `moneda` 3 letters defaulting to VES. */
export const AmountObject = Schema.Struct({
  valor: PositiveAmount,
  moneda: Schema.optionalWith(
    Schema.String.pipe(
      Schema.length(3, { message: () => "debe tener exactamente 3 caracteres (ISO 4217)" })
    ).annotations({ message: () => "debe tener exactamente 3 caracteres (ISO 4217)" }),
    { default: () => "VES" }
  )
}).annotations({ identifier: "Monto" })
export interface AmountObject extends Schema.Schema.Type<typeof AmountObject> {}
