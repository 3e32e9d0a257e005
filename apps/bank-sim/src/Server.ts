/**
 * The simulator's HTTP face (node:http, no framework): the bank routes a payments switch calls,
 * and `/admin` routes where tests and developers create accounts, read balances and counters,
 * read the code a payer received, and inject faults.
 *
 * Bank routes (JSON, amounts in integer cents as `monto`):
 *   POST /v1/c2p/codigo      {operacion_id, monto, concepto?, pagador, cobrador}
 *   POST /v1/c2p/debito      {operacion_id, monto, concepto?, otp, pagador, cobrador}
 *   POST /v1/transferencias  {operacion_id, monto, concepto?, ordenante, beneficiario, via, banco_ruta?}
 *   GET  /v1/operaciones/:id                    404 `25` when the bank never received it
 *   POST /v1/reversos        {operacion_id, original_id, monto}
 *   POST /v1/devoluciones    {operacion_id, original_id, monto}
 *
 * Mercantil Banco's dialect (Mercantil.ts), at any prefix:
 *   POST …/v1/mobile-payment/scp, …/v1/payment/c2p, …/v1/mobile-payment/search
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Bank, type Config, type Parte } from "./Bank.js"
import { CODIGOS, type Codigo } from "./Codes.js"
import { errorList, makeMercantil, operacionDeRuta, RUTA_DE } from "./Mercantil.js"

/** Where a fault applies. */
export type Ruta = "codigo" | "debito" | "transferencia" | "consulta" | "reverso" | "devolucion"

/**
 * A fault: `latencia` waits `ms` first; `error_5xx` answers `status` (503) without processing;
 * `rechazo` rejects with `codigo` without moving money; `timeout_tras_aplicar` processes (money
 * moves) and never answers (the socket is closed after `ms`, 60 s by default); `diferir`
 * answers EN_PROCESO and confirms after `ms`. `veces` limits how many requests it hits.
 */
export interface Falla {
  readonly ruta?: Ruta | "*"
  readonly tipo: "latencia" | "error_5xx" | "rechazo" | "timeout_tras_aplicar" | "diferir"
  readonly ms?: number
  readonly status?: number
  readonly codigo?: string
  readonly banco?: string
  veces?: number
}

export interface BankSim {
  readonly url: string
  readonly port: number
  readonly bank: Bank
  readonly close: () => Promise<void>
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  if (res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const readJson = (req: IncomingMessage): Promise<Record<string, unknown>> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}")
        resolve(typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {})
      } catch {
        resolve({})
      }
    })
    req.on("error", () => resolve({}))
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const isParte = (v: unknown): v is Parte => {
  const p = v as Partial<Parte> | null
  return (
    typeof p === "object" &&
    p !== null &&
    (p.tipo === "cuenta" || p.tipo === "telefono") &&
    typeof p.valor === "string" &&
    typeof p.banco === "string" &&
    typeof p.identificacion === "string"
  )
}

const str = (v: unknown) => (typeof v === "string" ? v : "")

/** Starts the simulator on `port` (0 picks a free one) on `host` (loopback by default). */
export const startBankSim = async (
  options: { readonly port?: number; readonly host?: string; readonly config?: Partial<Config> } = {}
): Promise<BankSim> => {
  const bank = new Bank()
  Object.assign(bank.config, options.config)
  let fallas: Array<Falla> = []
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()

  /** The faults hitting this request, each spending one of its `veces`. */
  const take = (ruta: Ruta, bancos: ReadonlyArray<string>): Array<Falla> => {
    const hit = fallas.filter(
      (f) =>
        (f.ruta === undefined || f.ruta === "*" || f.ruta === ruta) &&
        (f.banco === undefined || bancos.includes(f.banco)) &&
        (f.veces === undefined || f.veces > 0)
    )
    for (const f of hit) if (f.veces !== undefined) f.veces--
    fallas = fallas.filter((f) => f.veces === undefined || f.veces > 0)
    return hit
  }

  const bankRoute = async (ruta: Ruta, req: IncomingMessage, res: ServerResponse, id?: string) => {
    bank.contar(ruta)
    const body = ruta === "consulta" ? {} : await readJson(req)
    const partes = ["pagador", "cobrador", "ordenante", "beneficiario"].map((k) => body[k]).filter(isParte)
    const hit = take(
      ruta,
      partes.map((p) => p.banco)
    )
    for (const f of hit) if (f.tipo === "latencia") await sleep(f.ms ?? 1000)
    const down = hit.find((f) => f.tipo === "error_5xx")
    if (down !== undefined)
      return send(res, down.status ?? 503, { codigo_respuesta: CODIGOS.RECHAZO_TECNICO })
    if (ruta === "consulta") {
      const found = bank.previa(id ?? "")
      return found === undefined
        ? send(res, 404, { operacion_id: id, codigo_respuesta: CODIGOS.NO_ENCONTRADA })
        : send(res, 200, found)
    }
    const operacion_id = str(body.operacion_id)
    const monto = typeof body.monto === "number" ? body.monto : Number.NaN
    if (operacion_id === "" || !Number.isSafeInteger(monto))
      return send(res, 400, { estado: "RECHAZADA", codigo_respuesta: CODIGOS.MONTO_INVALIDO })
    const rechazo = hit.find((f) => f.tipo === "rechazo")
    const diferir = hit.find((f) => f.tipo === "diferir")?.ms
    const tipoOp = ruta === "codigo" ? "codigo" : ruta === "debito" ? "debito" : ruta
    let answer: ReturnType<Bank["solicitarCodigo"]>
    if (rechazo !== undefined) {
      answer = bank.rechazar(operacion_id, tipoOp, monto, (rechazo.codigo ?? CODIGOS.GENERICO) as Codigo)
    } else if (ruta === "codigo") {
      if (!isParte(body.pagador))
        return send(res, 400, { estado: "RECHAZADA", codigo_respuesta: CODIGOS.GENERICO })
      answer = bank.solicitarCodigo({ operacion_id, monto, pagador: body.pagador })
    } else if (ruta === "debito") {
      if (!isParte(body.pagador) || !isParte(body.cobrador))
        return send(res, 400, { estado: "RECHAZADA", codigo_respuesta: CODIGOS.GENERICO })
      answer = bank.debitar(
        { operacion_id, monto, otp: str(body.otp), pagador: body.pagador, cobrador: body.cobrador },
        diferir
      )
    } else if (ruta === "transferencia") {
      if (!isParte(body.ordenante) || !isParte(body.beneficiario))
        return send(res, 400, { estado: "RECHAZADA", codigo_respuesta: CODIGOS.GENERICO })
      answer = bank.transferir(
        {
          operacion_id,
          monto,
          ordenante: body.ordenante,
          beneficiario: body.beneficiario,
          via: body.via === "pago_movil" ? "pago_movil" : "credito_inmediato",
          banco_ruta: typeof body.banco_ruta === "string" ? body.banco_ruta : undefined
        },
        diferir
      )
    } else {
      answer = bank.devolver(ruta, { operacion_id, original_id: str(body.original_id), monto })
    }
    const hold = hit.find((f) => f.tipo === "timeout_tras_aplicar")
    if (hold !== undefined) {
      // Applied, but the caller never hears back: the unknown-outcome case.
      const timer = setTimeout(() => {
        timers.delete(timer)
        req.socket.destroy()
      }, hold.ms ?? 60_000)
      timers.add(timer)
      return
    }
    send(res, 200, answer)
  }

  const mercantil = makeMercantil(bank)

  /**
   * A request in Mercantil's dialect (Mercantil.ts), with the same faults as the simulator's own
   * routes: its operation counts as `codigo`, `debito`, `reverso`, `transferencia` or `consulta`.
   */
  const mercantilRoute = async (
    path: "scp" | "c2p" | "search",
    req: IncomingMessage,
    res: ServerResponse
  ) => {
    const body = await readJson(req)
    const pedido = mercantil.leer(path, req.headers, body)
    const ruta =
      pedido._tag === "Orden"
        ? RUTA_DE[pedido.operacion]
        : path === "scp"
          ? "codigo"
          : path === "search"
            ? "consulta"
            : "debito"
    bank.contar(ruta)
    // Also by dialect, so a test can tell the adapter that called.
    bank.contar(pedido._tag === "Orden" ? `mercantil_${pedido.operacion}` : "mercantil_error")
    if (pedido._tag === "Error") return send(res, pedido.salida.status, pedido.salida.body)
    const hit = take(ruta, ["0105"])
    for (const f of hit) if (f.tipo === "latencia") await sleep(f.ms ?? 1000)
    const down = hit.find((f) => f.tipo === "error_5xx")
    if (down !== undefined)
      return send(res, down.status ?? 503, errorList(CODIGOS.RECHAZO_TECNICO, "Servicio no disponible"))
    const rechazo = hit.find((f) => f.tipo === "rechazo")
    const salida =
      rechazo !== undefined ? pedido.rechazar(rechazo.codigo ?? CODIGOS.GENERICO) : pedido.aplicar()
    const hold = hit.find((f) => f.tipo === "timeout_tras_aplicar")
    if (hold !== undefined) {
      // Applied, but the caller never hears back: the unknown-outcome case.
      const timer = setTimeout(() => {
        timers.delete(timer)
        req.socket.destroy()
      }, hold.ms ?? 60_000)
      timers.add(timer)
      return
    }
    send(res, salida.status, salida.body)
  }

  const admin = async (
    method: string,
    parts: ReadonlyArray<string>,
    req: IncomingMessage,
    res: ServerResponse
  ) => {
    const [what, a, b] = parts
    if (method === "GET" && what === "estado")
      return send(res, 200, {
        contadores: bank.contadores,
        cuentas: bank.listarCuentas(),
        config: bank.config,
        fallas
      })
    if (method === "POST" && what === "reiniciar") {
      bank.reiniciar()
      mercantil.reiniciar()
      Object.assign(bank.config, options.config)
      fallas = []
      return send(res, 200, { ok: true })
    }
    if (what === "config" && (method === "PATCH" || method === "POST")) {
      Object.assign(bank.config, await readJson(req))
      return send(res, 200, bank.config)
    }
    if (what === "cuentas" && method === "POST") {
      const body = await readJson(req)
      if (
        typeof body.banco !== "string" ||
        typeof body.numero !== "string" ||
        typeof body.identificacion !== "string"
      )
        return send(res, 400, { error: "banco, numero e identificacion son obligatorios" })
      return send(res, 200, bank.abrirCuenta(body as Parameters<Bank["abrirCuenta"]>[0]))
    }
    if (what === "cuentas" && method === "GET" && a !== undefined && b !== undefined) {
      const cuenta = bank.cuenta(a, decodeURIComponent(b))
      return cuenta === undefined ? send(res, 404, { error: "no existe" }) : send(res, 200, cuenta)
    }
    if (what === "codigos" && method === "GET" && a !== undefined && b !== undefined) {
      const codigo = bank.ultimoCodigo(a, decodeURIComponent(b))
      return codigo === undefined ? send(res, 404, { error: "sin código" }) : send(res, 200, codigo)
    }
    if (what === "fallas" && method === "POST") {
      const body = await readJson(req)
      const nuevas = (Array.isArray(body.fallas) ? body.fallas : [body]) as Array<Falla>
      fallas.push(...nuevas.map((f) => ({ ...f })))
      return send(res, 200, { fallas })
    }
    if (what === "fallas" && method === "DELETE") {
      fallas = []
      return send(res, 200, { fallas })
    }
    send(res, 404, { error: "no_existe" })
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const parts = path.split("/").filter((p) => p !== "")
    const method = req.method ?? "GET"
    const handle = async () => {
      if (parts[0] === "admin") return admin(method, parts.slice(1), req, res)
      const dialecto = method === "POST" ? operacionDeRuta(path) : null
      if (dialecto !== null) return mercantilRoute(dialecto, req, res)
      if (parts[0] !== "v1") return send(res, 404, { error: "no_existe" })
      const route = parts.slice(1).join("/")
      if (method === "POST" && route === "c2p/codigo") return bankRoute("codigo", req, res)
      if (method === "POST" && route === "c2p/debito") return bankRoute("debito", req, res)
      if (method === "POST" && route === "transferencias") return bankRoute("transferencia", req, res)
      if (method === "POST" && route === "reversos") return bankRoute("reverso", req, res)
      if (method === "POST" && route === "devoluciones") return bankRoute("devolucion", req, res)
      if (method === "GET" && parts[1] === "operaciones" && parts[2] !== undefined)
        return bankRoute("consulta", req, res, decodeURIComponent(parts[2]))
      send(res, 404, { error: "no_existe" })
    }
    handle().catch(() => send(res, 500, { codigo_respuesta: CODIGOS.RECHAZO_TECNICO }))
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0)
  const host = options.host ?? "127.0.0.1"
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    bank,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t)
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
