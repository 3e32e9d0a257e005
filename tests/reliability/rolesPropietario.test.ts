/**
 * The portal's owner-only writes against the built server: a `cajero` or `lectura` session is
 * `403 rol_no_permitido`, a key is `401` (these routes take a session only), and nothing
 * changes. Each route is classified for isolation in isolation.test.ts (a session's own
 * merchant, no id of another); this suite covers who may call them.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashPassword } from "../../apps/server/src/platform/Passwords.js"
import { call, type Stack, startStack } from "../support/stack.js"

const PASSWORD = "clave-de-roles-1"

let stack: Stack
let db: Pg.Client
let key = ""
const codigo = `rolpro${Date.now().toString(36)}`
const emails = {
  propietario: `${codigo}@dueno.example`,
  cajero: `cajero-${codigo}@equipo.example`,
  lectura: `lectura-${codigo}@equipo.example`
}
type Rol = keyof typeof emails
const sessions = {} as Record<Rol, Record<string, string>>

const signIn = async (email: string) => {
  const reply = await fetch(`${stack.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  expect(reply.status, email).toBe(200)
  const body = (await reply.json()) as { csrf_token: string }
  return {
    cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "",
    "x-csrf-token": body.csrf_token
  }
}

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  db = new Pg.Client({
    connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
  })
  await db.connect()
  const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: "Roles del dueño",
      identificacion: "J-07013380-5",
      email: emails.propietario,
      password: PASSWORD
    }
  })
  expect(made.status).toBe(201)
  key = `${codigo}:${made.body.api_key}`
  for (const rol of ["cajero", "lectura"] as const)
    await db.query(
      `insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, $4 from comercios where codigo = $5`,
      [randomUUID(), emails[rol], await hashPassword(PASSWORD), rol, codigo]
    )
  for (const rol of Object.keys(emails) as Array<Rol>) sessions[rol] = await signIn(emails[rol])
  // Something for a bulk action to act on.
  const lote = await call(stack.url, "POST", "/switch/v1/lotes", {
    key,
    body: { items: [1, 2, 3].map((monto) => ({ monto, concepto: "roles" })) }
  })
  expect(lote.status).toBe(201)
})
afterAll(async () => {
  await db?.end()
  await stack?.stop()
})

/** The merchant's state a refused call must leave as it was. */
const state = async () => ({
  miPagina: (await call(stack.url, "GET", "/switch/v1/mi-pagina", { headers: sessions.propietario })).body,
  links: (await db.query("select id, estado from links where concepto = 'roles' order by id")).rows,
  acciones: (
    await db.query(
      "select count(*)::int as n from acciones_masivas where comercio_id = (select id from comercios where codigo = $1)",
      [codigo]
    )
  ).rows[0].n
})

/** The owner-only writes of this suite, each with a body the owner's session would get done. */
const OWNER_ONLY: ReadonlyArray<readonly [method: string, path: string, body: unknown]> = [
  ["PUT", "/switch/v1/mi-pagina", { activa: true, monto_min: 1, monto_max: 500, concepto_permitido: true }],
  ["POST", "/switch/v1/acciones-masivas", { accion: "cancelar", filtros: { q: "roles" } }]
]

describe("owner-only portal writes", () => {
  it("are routes of /openapi.json", async () => {
    const spec = (await call(stack.url, "GET", "/openapi.json")).body
    for (const [method, path] of OWNER_ONLY)
      expect(spec.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined()
  })

  it.each(OWNER_ONLY)(
    "%s %s: cajero and lectura are 403, a key 401, and nothing changes",
    async (method, path, body) => {
      const before = await state()
      expect(before.miPagina.updated_at).toBeNull()
      for (const rol of ["cajero", "lectura"] as const) {
        const reply = await call(stack.url, method, path, { headers: sessions[rol], body })
        expect(reply.status, `${rol}: ${JSON.stringify(reply.body)}`).toBe(403)
        expect(reply.body.error, rol).toBe("rol_no_permitido")
      }
      const withKey = await call(stack.url, method, path, { key, body })
      expect(withKey.status, JSON.stringify(withKey.body)).toBe(401)
      expect(await state()).toEqual(before)
    }
  )

  it("the owner's session gets both done (the refusals above are about the role)", async () => {
    const [[pm, pp, pb], [am, ap, ab]] = OWNER_ONLY as [
      readonly [string, string, unknown],
      readonly [string, string, unknown]
    ]
    const saved = await call(stack.url, pm, pp, { headers: sessions.propietario, body: pb })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body).toMatchObject({ activa: true, monto_max: 500 })
    const accion = await call(stack.url, am, ap, { headers: sessions.propietario, body: ab })
    expect(accion.status, JSON.stringify(accion.body)).toBe(202)
    expect(accion.body.total).toBe(3)
  })
})
