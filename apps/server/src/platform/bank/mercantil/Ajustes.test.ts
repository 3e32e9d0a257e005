import { spawn } from "node:child_process"
import { resolve } from "node:path"
import { Money, type Ports } from "@switch/core"
import { Effect, Either, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { fromEnv, mercantilFromEnv } from "../../../Config.js"
import { porBanco } from "../PorBanco.js"

const MAIN = resolve(__dirname, "../../../../dist/main.js")

const CREDENCIALES = {
  SWITCH_MERCANTIL_URL: "https://apimbu.mercantilbanco.com/mercantil-banco/prod/",
  SWITCH_MERCANTIL_INTEGRATOR_ID: "31",
  SWITCH_MERCANTIL_MERCHANT_ID: "200284",
  SWITCH_MERCANTIL_TERMINAL_ID: "abcde",
  SWITCH_MERCANTIL_CLIENT_ID: "cid-secreto-1",
  SWITCH_MERCANTIL_SECRETO: "clave-secreta-2"
}

describe("Mercantil settings", () => {
  it("without SWITCH_BANCO_ADAPTADORES no bank has its own adapter", () => {
    expect(mercantilFromEnv({}, "production", null)).toEqual(Either.right(undefined))
    expect(fromEnv({}, "s", 8080, "development").mercantil).toBeUndefined()
  })

  it("production with Mercantil configured reads every credential, secrets redacted", () => {
    const env = { SWITCH_BANCO_ADAPTADORES: "0105=mercantil", ...CREDENCIALES }
    const m = fromEnv(env, "s", 8080, "production").mercantil
    expect(m).toMatchObject({
      bancos: ["0105"],
      url: "https://apimbu.mercantilbanco.com/mercantil-banco/prod",
      integratorId: "31",
      merchantId: "200284",
      terminalId: "abcde"
    })
    expect(Redacted.value(m?.clientId ?? Redacted.make(""))).toBe("cid-secreto-1")
    // What a log line of the settings would show.
    expect(JSON.stringify(m)).not.toContain("cid-secreto-1")
    expect(JSON.stringify(m)).not.toContain("clave-secreta-2")
    expect(String(m?.secreto)).not.toContain("clave-secreta-2")
  })

  it("production with Mercantil configured and credentials missing fails in one line naming them", () => {
    const { SWITCH_MERCANTIL_CLIENT_ID: _a, SWITCH_MERCANTIL_SECRETO: _b, ...parte } = CREDENCIALES
    const r = mercantilFromEnv({ SWITCH_BANCO_ADAPTADORES: "0105=mercantil", ...parte }, "production", null)
    expect(Either.isLeft(r)).toBe(true)
    const line = Either.isLeft(r) ? r.left : ""
    expect(line.split("\n")).toHaveLength(1)
    expect(line).toContain("SWITCH_MERCANTIL_CLIENT_ID")
    expect(line).toContain("SWITCH_MERCANTIL_SECRETO")
    expect(line).not.toContain("SWITCH_MERCANTIL_MERCHANT_ID")
  })

  it("development without credentials speaks to the simulator's Mercantil dialect", () => {
    const r = mercantilFromEnv(
      { SWITCH_BANCO_ADAPTADORES: "0105=mercantil" },
      "development",
      "http://127.0.0.1:9"
    )
    expect(Either.getOrThrow(r)?.url).toBe("http://127.0.0.1:9/mercantil-banco/sandbox")
    // The demo merchant collects into an account number: the simulator's merchant phone stands in.
    expect(Either.getOrThrow(r)?.telefono).toBe("04120000105")
  })

  it("an adapter nobody wrote is refused", () => {
    expect(
      Either.isLeft(mercantilFromEnv({ SWITCH_BANCO_ADAPTADORES: "0102=venezuela" }, "development", null))
    ).toBe(true)
  })

  it("a production start with Mercantil configured and no credentials exits with one line", async () => {
    let output = ""
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        SWITCH_ENV: "production",
        DATABASE_URL: "postgres://nadie@127.0.0.1:1/ninguna",
        SWITCH_BANCO_ADAPTADORES: "0105=mercantil",
        SWITCH_MERCANTIL_CLIENT_ID: "",
        SWITCH_MERCANTIL_SECRETO: ""
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    child.stdout?.on("data", (c) => {
      output += c
    })
    child.stderr?.on("data", (c) => {
      output += c
    })
    const code = await new Promise<number | null>((done) => child.once("exit", done))
    expect(code).toBe(1)
    expect(output.trim().split("\n")).toHaveLength(1)
    expect(output).toContain("SWITCH_MERCANTIL_SECRETO")
  })
})

describe("the live bank by bank code", () => {
  const answer = (referencia: string): Ports.BankAnswer => ({
    estado: "LIQUIDADA",
    referencia_banco: referencia,
    endtoend: null,
    motivo_rechazo: null
  })
  const marca = (nombre: string, enviadas: Set<string>) => {
    const ok = (id: string) =>
      Effect.sync(() => {
        enviadas.add(id)
        return answer(nombre)
      })
    return {
      requestCode: (o: Ports.RequestCodeOrder) => ok(o.operacionId),
      debit: (o: Ports.DebitOrder) => ok(o.operacionId),
      credit: (o: Ports.CreditOrder) => ok(o.operacionId),
      query: () => Effect.succeed(answer(nombre)),
      reverse: (o: Ports.ReversalOrder) => ok(o.operacionId),
      refund: (o: Ports.ReversalOrder) => ok(o.operacionId)
    }
  }
  const parte = (banco: string): Ports.Party => ({
    tipo: "telefono",
    valor: "04141234567",
    banco,
    identificacion: "V1",
    nombre: "x"
  })
  const orden = (id: string, banco: string) => ({
    operacionId: id,
    monto: Money.Cents(100),
    concepto: "x",
    otp: "1",
    cobrador: parte(banco),
    pagador: parte("0102")
  })

  it("0105's orders go to Mercantil, the rest (and a crédito inmediato) to the current adapter; earlier operations to who sent them", async () => {
    const deMercantil = new Set<string>()
    const mercantil = marca("mercantil", deMercantil)
    const http = marca("http", new Set())
    const live = porBanco(
      new Map([
        [
          "0105",
          {
            gateway: mercantil,
            envio: (id: string) => Effect.succeed(deMercantil.has(id)),
            llevaCredito: (o: Ports.CreditOrder) => o.via === "pago_movil"
          }
        ]
      ]),
      http
    )
    const run = <A>(e: Effect.Effect<A>) => Effect.runPromise(e)
    expect((await run(live.debit(orden("a", "0105")))).referencia_banco).toBe("mercantil")
    expect((await run(live.debit(orden("b", "0102")))).referencia_banco).toBe("http")
    expect((await run(live.requestCode(orden("c", "0134")))).referencia_banco).toBe("http")
    expect(
      (
        await run(
          live.credit({
            operacionId: "d",
            monto: Money.Cents(1),
            concepto: "x",
            ordenante: parte("0105"),
            beneficiario: parte("0102"),
            via: "pago_movil"
          })
        )
      ).referencia_banco
    ).toBe("mercantil")
    // A crédito inmediato is not Mercantil's vuelto: it keeps the current adapter.
    expect(
      (
        await run(
          live.credit({
            operacionId: "e",
            monto: Money.Cents(1),
            concepto: "x",
            ordenante: parte("0105"),
            beneficiario: { ...parte("0102"), tipo: "cuenta", valor: "01020000000000000001" },
            via: "credito_inmediato"
          })
        )
      ).referencia_banco
    ).toBe("http")
    expect((await run(live.query("a"))).referencia_banco).toBe("mercantil")
    expect((await run(live.query("b"))).referencia_banco).toBe("http")
    const rev = (originalId: string) => ({
      operacionId: `r-${originalId}`,
      originalId,
      monto: Money.Cents(1),
      motivo: "x"
    })
    expect((await run(live.reverse(rev("a")))).referencia_banco).toBe("mercantil")
    expect((await run(live.refund(rev("b")))).referencia_banco).toBe("http")
  })
})
