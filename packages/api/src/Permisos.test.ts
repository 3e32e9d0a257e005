import { readFileSync, writeFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { SwitchApi } from "./Api.js"
import { SCOPES } from "./OAuth.js"
import {
  claveRuta,
  comoMarkdown,
  indice,
  NADIE,
  type Permiso,
  permiso,
  type Quien,
  type Rol,
  rechazo,
  tabla
} from "./Permisos.js"

const filas = tabla(SwitchApi)
const autenticadas = filas.filter((fila) => fila.autenticado)
const grant = (metodo: string, ruta: string): Permiso => {
  const found = indice(filas).get(claveRuta(metodo, ruta))
  if (found === undefined) throw new Error(`no endpoint ${metodo} ${ruta}`)
  return found
}
const ROLES: ReadonlyArray<Rol> = ["propietario", "cajero", "lectura"]
const admite = (p: Permiso, quien: Quien) => rechazo(p, quien) === undefined
const SAFE = new Set(["GET", "HEAD", "OPTIONS"])
/** The direct API and its peers: money moves there, and only a key reaches them. */
const DINERO = /^\/switch\/v1\/(cobrar|pagar|dispersiones|reintegro|reverso)(\/|$)/

describe("the grants of the contract's endpoints", () => {
  it("every authenticated endpoint states who may call it, and no public endpoint grants", () => {
    expect(autenticadas.length).toBeGreaterThan(60)
    for (const fila of filas) {
      const nadie = fila.permiso === NADIE
      expect(nadie, `${fila.metodo} ${fila.ruta}`).toBe(!fila.autenticado)
    }
  })

  it("an endpoint without a grant refuses every caller", () => {
    for (const modo of ["test", "live"] as const) expect(admite(NADIE, { _tag: "Llave", modo })).toBe(false)
    for (const rol of ROLES) expect(admite(NADIE, { _tag: "Sesion", rol })).toBe(false)
    expect(admite(NADIE, { _tag: "Token", alcances: [...SCOPES] })).toBe(false)
    expect(rechazo(permiso({ sesion: ["propietario"] }), { _tag: "Llave", modo: "live" })?._tag).toBe(
      "SinLlave"
    )
    expect(rechazo(permiso({ llave: ["live"] }), { _tag: "Llave", modo: "test" })?._tag).toBe("RequiereLive")
    expect(rechazo(permiso({ llave: ["live"] }), { _tag: "Sesion", rol: "propietario" })?._tag).toBe(
      "SoloLlave"
    )
  })

  it("a cajero makes links and batches, and reaches no keys, webhooks, notices, request log or team", () => {
    const cajero: Quien = { _tag: "Sesion", rol: "cajero" }
    for (const [m, r] of [
      ["POST", "/switch/v1/links"],
      ["POST", "/switch/v1/lotes"],
      ["POST", "/switch/v1/links/:id/cancelar"],
      ["POST", "/switch/v1/links/dolares"]
    ] as const)
      expect(admite(grant(m, r), cajero), `${m} ${r}`).toBe(true)
    for (const fila of autenticadas)
      if (
        /^\/switch\/v1\/(llaves|webhooks|eventos|logs|equipo|actividad|acciones-masivas)(\/|$)/.test(
          fila.ruta
        )
      )
        expect(admite(fila.permiso, cajero), `${fila.metodo} ${fila.ruta}`).toBe(false)
  })

  it("only the owner changes the team, keys, webhooks, mi página, tips, split accounts, or refunds", () => {
    for (const fila of autenticadas)
      if (
        !SAFE.has(fila.metodo) &&
        /^\/switch\/v1\/(equipo|llaves|webhooks|eventos|mi-pagina|propinas|cuentas-aprobadas|acciones-masivas|links\/:id\/reembolsos)(\/|$)/.test(
          fila.ruta
        )
      )
        expect(fila.permiso.sesion, `${fila.metodo} ${fila.ruta}`).toEqual(["propietario"])
  })

  it("lectura only reads, but signs out, switches its mode and manages its own TOTP", () => {
    const lectura: Quien = { _tag: "Sesion", rol: "lectura" }
    for (const fila of autenticadas)
      if (!SAFE.has(fila.metodo))
        expect(admite(fila.permiso, lectura), `${fila.metodo} ${fila.ruta}`).toBe(
          fila.ruta.startsWith("/switch/v1/sesion")
        )
  })

  it("no session and no token reaches a route that moves money; a key of either mode does", () => {
    const money = autenticadas.filter((fila) => DINERO.test(fila.ruta))
    expect(money.length).toBe(6)
    for (const fila of money) {
      expect(fila.permiso.sesion, fila.ruta).toEqual([])
      expect(fila.permiso.alcance, fila.ruta).toBeNull()
      expect(fila.permiso.llave, fila.ruta).toEqual(["test", "live"])
    }
  })

  it("tokens reach the links, a transaction's query and list, settlements, and no more", () => {
    const abiertas = autenticadas
      .filter((fila) => fila.permiso.alcance !== null)
      .map((fila) => `${claveRuta(fila.metodo, fila.ruta)} ${fila.permiso.alcance}`)
    expect(abiertas.sort()).toEqual(
      [
        "GET /switch/v1/links links:read",
        "GET /switch/v1/links/:id links:read",
        "POST /switch/v1/links links:write",
        "POST /switch/v1/links/:id/cancelar links:write",
        "POST /switch/v1/consultar transacciones:read",
        "GET /switch/v1/transacciones transacciones:read",
        "GET /switch/v1/liquidaciones liquidaciones:read"
      ].sort()
    )
  })

  it("webhooks' and flows' changes need a live key; the portal's own routes take no key", () => {
    for (const [m, r] of [
      ["POST", "/switch/v1/webhooks"],
      ["PATCH", "/switch/v1/webhooks/:id"],
      ["DELETE", "/switch/v1/webhooks/:id"],
      ["POST", "/switch/v1/flow/config"],
      ["PUT", "/switch/v1/flows/definicion"]
    ] as const)
      expect(grant(m, r).llave, `${m} ${r}`).toEqual(["live"])
    for (const fila of autenticadas)
      if (
        /^\/switch\/v1\/(equipo|actividad|sesion|mi-pagina|acciones-masivas|propinas|cuentas-aprobadas)(\/|$)/.test(
          fila.ruta
        )
      )
        expect(fila.permiso.llave, `${fila.metodo} ${fila.ruta}`).toEqual([])
  })

  it("PERMISOS.md is the table as it stands", () => {
    const file = new URL("../PERMISOS.md", import.meta.url)
    const text = comoMarkdown(filas)
    if (process.env.ACTUALIZAR_PERMISOS === "1") writeFileSync(file, text)
    expect(readFileSync(file, "utf8")).toBe(text)
  })
})

describe("the grants, for any caller and endpoint", () => {
  const fila = FastCheck.constantFrom(...autenticadas)
  const rol = FastCheck.constantFrom(...ROLES)
  const alcances = FastCheck.subarray([...SCOPES])

  it.prop("the owner reaches every endpoint any session reaches", [fila, rol], ([f, r]) => {
    if (admite(f.permiso, { _tag: "Sesion", rol: r }))
      expect(admite(f.permiso, { _tag: "Sesion", rol: "propietario" })).toBe(true)
  })

  it.prop(
    "a token reaches an endpoint only with the one scope its grant names",
    [fila, alcances],
    ([f, s]) => {
      expect(admite(f.permiso, { _tag: "Token", alcances: s })).toBe(
        f.permiso.alcance !== null && s.includes(f.permiso.alcance)
      )
    }
  )

  it.prop("no read scope opens an unsafe method but a transaction's query", [fila], ([f]) => {
    if (!SAFE.has(f.metodo) && f.ruta !== "/switch/v1/consultar")
      expect(
        admite(f.permiso, {
          _tag: "Token",
          alcances: SCOPES.filter((s) => s.endsWith(":read"))
        })
      ).toBe(false)
  })
})
