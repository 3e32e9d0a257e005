/** `switch admin operador crear` against the real server: the operator it makes signs in with the secret shown once. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode, totpStep } from "../../apps/server/src/platform/Totp.js"
import { ADMIN_TOKEN, call, type Stack, startStack } from "../support/stack.js"
import { makeCli } from "./support.js"

let stack: Stack
let cli: ReturnType<typeof makeCli>

beforeAll(async () => {
  stack = await startStack()
  cli = makeCli(stack.url, { SWITCH_KEY: "" })
}, 240_000)
afterAll(async () => {
  cli?.cleanup()
  await stack?.stop()
})

describe("admin operador crear", () => {
  it("creates an operator with its role and shows its TOTP secret once; the password comes from the environment", async () => {
    const password = "clave-de-operador-cli"
    const noPassword = await cli.run(
      ["admin", "operador", "crear", "ana@switch.example", "--rol", "riesgo"],
      {
        env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN }
      }
    )
    expect(noPassword.code).toBe(2)
    expect(noPassword.stderr).toContain("SWITCH_OPERADOR_PASSWORD")

    const made = await cli.run(
      ["--json", "admin", "operador", "crear", "ana@switch.example", "--rol", "riesgo"],
      {
        env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN, SWITCH_OPERADOR_PASSWORD: password }
      }
    )
    expect(made.code, made.stderr).toBe(0)
    const body = JSON.parse(made.stdout)
    expect(body).toMatchObject({ email: "ana@switch.example", rol: "riesgo", activo: true })
    const signed = await call(stack.url, "POST", "/admin/v1/operador/sesion", {
      body: {
        email: "ana@switch.example",
        password,
        codigo: totpCode(body.totp_secret, totpStep(Date.now()))
      }
    })
    expect(signed.status).toBe(200)
    expect(signed.body.operador.rol).toBe("riesgo")

    const human = await cli.run(["admin", "operador", "crear", "beto@switch.example", "--rol", "soporte"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN, SWITCH_OPERADOR_PASSWORD: password }
    })
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/secreto TOTP: [A-Z2-7]{32}/)
    const twice = await cli.run(["admin", "operador", "crear", "beto@switch.example", "--rol", "soporte"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN, SWITCH_OPERADOR_PASSWORD: password }
    })
    expect(twice.code).not.toBe(0)
    expect(twice.stderr).toContain("operador_existe")
  })
})
