/**
 * Bank accounts for split tests: a valid Banco de Venezuela account number (`n` picks it) and a
 * beneficiary on it, as the admin API and the split take them.
 */
import { Venezuela } from "@switch/core"
import { Option } from "effect"

export const account = (n: number) => {
  const number = String(n).padStart(10, "0")
  return `01020194${Option.getOrThrow(Venezuela.accountCheckDigits("0102", "0194", number))}${number}`
}

export const beneficiary = (n: number) => ({
  tipo: "cuenta",
  valor: account(n),
  banco: "0102",
  identificacion: "V-12345678",
  nombre: `Beneficiario ${n}`
})
