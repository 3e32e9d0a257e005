import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc, Option } from "effect"
import { add, MAX, refusal, remove } from "./CuentasAprobadas.js"
import type { Instrument } from "./Instrument.js"
import { accountCheckDigits, banks } from "./Venezuela.js"

const digitsOf = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""))
const account = fc
  .tuple(fc.constantFrom(...banks.map((bank) => bank.codigo)), digitsOf(4), digitsOf(10))
  .map(
    ([bank, branch, number]) =>
      `${bank}${branch}${Option.getOrThrow(accountCheckDigits(bank, branch, number))}${number}`
  )
const cedula = fc.integer({ min: 1, max: 99_999_999 })
const cuenta = (valor: string, n: number): Instrument => ({
  tipo: "cuenta",
  valor,
  banco: valor.slice(0, 4),
  identificacion: `V${n}`,
  tipo_doc: "V",
  nombre: "Ana"
})

describe("approved split accounts", () => {
  it.prop(
    "an account is added once; again with the same holder it is already there",
    [account, cedula],
    ([v, n]) => {
      const first = add([], [], cuenta(v, n))
      expect(first._tag).toBe("Agregada")
      if (first._tag !== "Agregada") return
      expect(first.cuentas).toHaveLength(1)
      expect(add(first.cuentas, [], { ...cuenta(v, n), identificacion: `v-${n}` })._tag).toBe("YaEstaba")
    }
  )

  it.prop(
    "a known account given with another holder id is refused, whether approved or a settlement account",
    [account, cedula, cedula],
    ([v, n, m]) => {
      fc.pre(n !== m)
      expect(add([cuenta(v, n)], [], cuenta(v, m))._tag).toBe("OtroTitular")
      expect(add([], [cuenta(v, n)], cuenta(v, m))._tag).toBe("OtroTitular")
      expect(add([], [cuenta(v, n)], cuenta(v, n))._tag).toBe("Agregada")
    }
  )

  it.prop(
    "never more than 20: the 21st is refused and the list is unchanged",
    [fc.uniqueArray(account, { minLength: MAX + 1, maxLength: MAX + 1 })],
    ([valores]) => {
      let current: ReadonlyArray<Instrument> = []
      for (const v of valores.slice(0, MAX)) {
        const r = add(current, [], cuenta(v, 1))
        expect(r._tag).toBe("Agregada")
        if (r._tag === "Agregada") current = r.cuentas
      }
      expect(current).toHaveLength(MAX)
      expect(add(current, [], cuenta(valores[MAX]!, 1))._tag).toBe("Limite")
    }
  )

  it.prop(
    "remove takes out exactly the account named, whatever holder it is named with",
    [fc.uniqueArray(account, { minLength: 2, maxLength: 5 })],
    ([valores]) => {
      const current = valores.map((v) => cuenta(v, 7)).slice(1)
      const target = current[0]!
      expect(remove(current, target)).toEqual(current.slice(1))
      expect(remove(current, { ...target, identificacion: "V-1" })).toEqual(current.slice(1))
      expect(remove(current, cuenta(valores[0]!, 7))).toBeUndefined()
    }
  )

  it.prop(
    "a refused add answers one 409 code per reason, whichever route asked",
    [account, cedula, cedula],
    ([v, n, m]) => {
      fc.pre(n !== m)
      const other = add([cuenta(v, n)], [], cuenta(v, m))
      if (other._tag !== "OtroTitular") throw new Error(other._tag)
      expect(refusal(other).error).toBe("cuenta_otro_titular")
      expect(refusal(other).detail).toContain("otro titular")
      expect(refusal({ _tag: "Limite" })).toMatchObject({ error: "limite_cuentas" })
      expect(refusal({ _tag: "Limite" }).detail).toContain(String(MAX))
    }
  )
})
