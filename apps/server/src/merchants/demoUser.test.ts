/**
 * The demo owner of `npm start` in development: made with the demo merchant, its password
 * derived from the secret (the same after a restart, a new one with a new secret), signing in
 * to the portal; and never made when not asked (a production start does not ask).
 */
import { Redacted } from "effect"
import Pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { freshDatabase, startServer, type TestServer, testSettings } from "../../test/harness.js"
import { prepare } from "../Prepare.js"
import { verifyPassword } from "../platform/Passwords.js"
import { DEMO_EMAIL, demoPassword } from "./DemoUser.js"

const servers: Array<TestServer> = []
afterAll(async () => {
  for (const server of servers) await server.close()
})

const users = async (url: string) => {
  const db = new Pg.Client({ connectionString: url })
  await db.connect()
  try {
    return (
      await db.query(
        `select u.email, u.rol, u.hash, c.codigo from usuarios u join comercios c on c.id = u.comercio_id`
      )
    ).rows
  } finally {
    await db.end()
  }
}

describe("the demo owner", () => {
  it("is made in development with a password derived from the secret, and signs in to the portal", async () => {
    const url = await freshDatabase()
    const settings = testSettings()
    const first = await prepare(url, settings, { seed: true, demoUser: true })
    expect(first?.usuario).toEqual({ email: DEMO_EMAIL, password: expect.stringMatching(/^demo-[\w-]{16}$/) })
    const again = await prepare(url, settings, { seed: true, demoUser: true })
    expect(again?.usuario).toEqual(first?.usuario)
    const rows = await users(url)
    expect(rows).toEqual([expect.objectContaining({ email: DEMO_EMAIL, rol: "propietario", codigo: "demo" })])

    const server = await startServer({ databaseUrl: url, settings })
    servers.push(server)
    const reply = await fetch(`${server.url}/switch/v1/sesion`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: DEMO_EMAIL, password: first?.usuario?.password })
    })
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({
      comercio: { codigo: "demo" },
      usuario: { rol: "propietario" }
    })
  })

  it("takes the new password when the secret changes, and is not made unless asked", async () => {
    const url = await freshDatabase()
    await prepare(url, testSettings(), { seed: true })
    expect(await users(url)).toEqual([])
    await prepare(url, testSettings(), { seed: true, demoUser: true })
    const made = await prepare(url, testSettings({ secret: Redacted.make("otro-secreto") }), {
      seed: true,
      demoUser: true
    })
    expect(made?.usuario?.password).toBe(demoPassword("otro-secreto"))
    expect(made?.usuario?.password).not.toBe(demoPassword("secreto-de-prueba"))
    const [row] = await users(url)
    expect(await verifyPassword(demoPassword("otro-secreto"), row.hash)).toBe(true)
  })
})
