/**
 * A merchant with the split pilot for the browser suites: registered, the pilot and immediate
 * settlement on, two approved accounts of bank 0102; and a test link marked paid.
 */
import { expect } from "vitest"
import { adminCall } from "./browser.js"
import { call } from "./stack.js"

/** Accounts of bank 0102 with valid check digits (the split's approved accounts). */
export const SPLIT_ACCOUNTS: Record<number, string> = {
  1: "01020194280000000001",
  2: "01020194260000000002"
}

export const splitBeneficiary = (n: number) => ({
  tipo: "cuenta",
  valor: SPLIT_ACCOUNTS[n],
  banco: "0102",
  identificacion: "V-12345678",
  nombre: `Beneficiaria ${n}`
})

/**
 * Registers `codigo` (e-mail `<codigo>@tienda.example`, with `password` when given), turns the
 * split pilot and immediate settlement on and approves beneficiaries 1 and 2; its test key.
 */
export const splitMerchant = async (base: string, codigo: string, password?: string): Promise<string> => {
  const registered = await call(base, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Bodega ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@tienda.example`,
      ...(password === undefined ? {} : { password })
    }
  })
  expect(registered.status).toBe(201)
  expect(
    (
      await adminCall(base, "PATCH", `/admin/v1/comercios/${codigo}`, {
        split_habilitado: true,
        liquidacion_inmediata: true
      })
    ).status
  ).toBe(200)
  for (const n of [1, 2])
    await adminCall(base, "POST", `/admin/v1/comercios/${codigo}/cuentas-aprobadas`, splitBeneficiary(n))
  return `${codigo}:${registered.body.api_key}`
}

/** The test link `linkId` simulated paid. */
export const simulatePaid = async (base: string, key: string, linkId: string) => {
  expect(
    (
      await call(base, "POST", `/switch/v1/links/${linkId}/simular`, {
        key,
        body: { resultado: "pagado" }
      })
    ).status
  ).toBe(200)
}
