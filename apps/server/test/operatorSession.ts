/**
 * An operator of the console made with the admin token and signed in with its password and a
 * fresh TOTP code: the session's cookie and CSRF token, ready as request headers.
 */
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { totpCode, totpStep } from "../src/platform/Totp.js"
import { call } from "./harness.js"

/**
 * Creates an operator of `rol` (e-mail `<rol>-<random>@switch.test`) and signs it in; expects the
 * sign-in `200`, and the creation `201` too when `checkCreated` says so.
 */
export const signInOperator = async (
  url: string,
  rol: string,
  options: { readonly password: string; readonly checkCreated: boolean }
) => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@switch.test`
  const made = await call(url, "POST", "/admin/v1/operadores", {
    headers: { "x-admin-token": "admin-de-prueba" },
    body: { email, password: options.password, rol }
  })
  if (options.checkCreated) expect(made.status).toBe(201)
  const signed = await call(url, "POST", "/admin/v1/operador/sesion", {
    body: {
      email,
      password: options.password,
      codigo: totpCode(made.body.totp_secret, totpStep(Date.now()))
    }
  })
  expect(signed.status).toBe(200)
  return {
    cookie: (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? "",
    "x-csrf-token": signed.body.csrf_token as string
  }
}
