/**
 * The simulated banks' books: accounts (with their phone for pago móvil and C2P), one-time
 * codes, and every operation by the caller's id. All in memory and synchronous, so two
 * requests with the same operation id can never both move money: the first one records the
 * operation before anything else runs, and the second reads that record.
 */
import { randomInt } from "node:crypto"
import { Venezuela } from "@switch/core"
import { CODIGOS, type Codigo, DESCRIPCIONES, type EstadoSim, type Respuesta } from "./Codes.js"

/** A party as the caller names it. */
export interface Parte {
  readonly tipo: "cuenta" | "telefono"
  readonly valor: string
  readonly banco: string
  readonly identificacion: string
}

/** An account at one of the simulated banks; amounts are integer cents. */
export interface Cuenta {
  banco: string
  numero: string
  telefono: string | null
  identificacion: string
  saldo: number
  afiliado_c2p: boolean
  bloqueada: boolean
  acepta_debito: boolean
  acepta_credito: boolean
  minimo_operacion: number | null
  limite_operacion: number | null
  limite_diario: number | null
  usado_hoy: number
  dia: string
}

export interface Config {
  /** Open an account with `saldoInicial` for a party nobody created (development convenience). */
  autoAbrir: boolean
  saldoInicial: number
  validezCodigoMs: number
  /** How long a `credito_inmediato` stays EN_PROCESO before it confirms. */
  confirmacionCreditoMs: number
  /** Banks that answer BANCO_NO_DISPONIBLE without processing anything. */
  bancosCaidos: Array<string>
  /** Banks that cannot reverse (answer NO_SOPORTADO). */
  bancosSinReverso: Array<string>
  /** Added to the real clock, so tests can let codes expire without waiting. */
  relojDesfaseMs: number
  /** When set, every issued code is this one (development); otherwise 8 random digits. */
  codigoFijo: string | null
  /** The Mercantil dialect's `X-IBM-Client-Id` and merchant secret (Mercantil.ts). */
  mercantilClientId: string
  mercantilSecreto: string
}

export const defaultConfig = (): Config => ({
  autoAbrir: true,
  saldoInicial: 100_000_000,
  validezCodigoMs: 120_000,
  confirmacionCreditoMs: 3_000,
  bancosCaidos: [],
  bancosSinReverso: ["0166", "0175", "0177"],
  relojDesfaseMs: 0,
  codigoFijo: null,
  // The server's development defaults (apps/server Config.ts MERCANTIL_SIMULADOR) are these.
  mercantilClientId: "bank-sim-client-id",
  mercantilSecreto: "bank-sim-secreto-mercantil"
})

type Tipo = "codigo" | "debito" | "transferencia" | "reverso" | "devolucion"

interface Operacion {
  readonly id: string
  readonly tipo: Tipo
  estado: EstadoSim
  codigo: Codigo
  referencia: string | null
  endtoend: string | null
  confirmaEn: number | null
  readonly monto: number
  /** Account keys the money left and reached, for reversals and refunds. */
  readonly origen: string | null
  readonly destino: string | null
  devuelto: number
  readonly dia: string
}

export interface Contadores {
  solicitudes: Record<string, number>
  codigos_emitidos: number
  debitos_aplicados: number
  creditos_aplicados: number
  reversos_aplicados: number
  devoluciones_aplicadas: number
}

const digits = (text: string) => text.replace(/\D/g, "")

/** `0414-1234567`, `+58 414 1234567` and `4141234567` are the same phone. */
export const normalizarTelefono = (text: string): string => {
  let d = digits(text)
  if (d.startsWith("58") && d.length === 12) d = d.slice(2)
  return d.startsWith("0") ? d : `0${d}`
}

/** Ids compare by their digits: `V-12345678`, `V12345678` and `12345678` are the same person. */
const mismaIdentificacion = (a: string, b: string) => digits(a) === digits(b)

const cuentaKey = (banco: string, numero: string) => `${banco}:${numero}`

export class Bank {
  config: Config = defaultConfig()
  private cuentas = new Map<string, Cuenta>()
  private telefonos = new Map<string, string>()
  private codigos = new Map<string, { codigo: string; venceEn: number; usado: boolean }>()
  private operaciones = new Map<string, Operacion>()
  contadores: Contadores = Bank.contadoresVacios()
  private secuencia = 0

  private static contadoresVacios(): Contadores {
    return {
      solicitudes: {},
      codigos_emitidos: 0,
      debitos_aplicados: 0,
      creditos_aplicados: 0,
      reversos_aplicados: 0,
      devoluciones_aplicadas: 0
    }
  }

  now(): number {
    return Date.now() + this.config.relojDesfaseMs
  }

  private hoy(): string {
    return new Date(this.now() - 4 * 3_600_000).toISOString().slice(0, 10)
  }

  reiniciar(): void {
    this.config = defaultConfig()
    this.cuentas.clear()
    this.telefonos.clear()
    this.codigos.clear()
    this.operaciones.clear()
    this.contadores = Bank.contadoresVacios()
  }

  contar(ruta: string): void {
    this.contadores.solicitudes[ruta] = (this.contadores.solicitudes[ruta] ?? 0) + 1
  }

  /** Creates or updates an account; a phone given links it for pago móvil and C2P. */
  abrirCuenta(input: Partial<Cuenta> & { banco: string; numero: string; identificacion: string }): Cuenta {
    const key = cuentaKey(input.banco, input.numero)
    const previa = this.cuentas.get(key)
    const cuenta: Cuenta = {
      telefono: null,
      saldo: this.config.saldoInicial,
      afiliado_c2p: true,
      bloqueada: false,
      acepta_debito: true,
      acepta_credito: true,
      minimo_operacion: null,
      limite_operacion: null,
      limite_diario: null,
      usado_hoy: 0,
      dia: this.hoy(),
      ...previa,
      ...input,
      ...(input.telefono == null ? {} : { telefono: normalizarTelefono(input.telefono) })
    }
    this.cuentas.set(key, cuenta)
    if (cuenta.telefono !== null) this.telefonos.set(`${cuenta.banco}:${cuenta.telefono}`, key)
    return cuenta
  }

  cuenta(banco: string, valor: string): Cuenta | undefined {
    const byPhone = this.telefonos.get(`${banco}:${normalizarTelefono(valor)}`)
    return this.cuentas.get(byPhone ?? cuentaKey(banco, digits(valor)))
  }

  listarCuentas(): Array<Cuenta> {
    return [...this.cuentas.values()]
  }

  /** The party's account; a party nobody created is opened when `autoAbrir` is on. */
  private buscar(parte: Parte): Cuenta | undefined {
    // The simulated banks are the BCV list's; any other code has no accounts.
    if (!Venezuela.isBankCode(parte.banco)) return undefined
    const found = this.cuenta(parte.banco, parte.valor)
    if (found !== undefined || !this.config.autoAbrir) return found
    const telefono = parte.tipo === "telefono" ? normalizarTelefono(parte.valor) : null
    const numero =
      parte.tipo === "cuenta" ? digits(parte.valor) : `${parte.banco}${digits(parte.valor).padStart(16, "0")}`
    return this.abrirCuenta({ banco: parte.banco, numero, telefono, identificacion: parte.identificacion })
  }

  ultimoCodigo(banco: string, valor: string): { codigo: string; vence_en: string } | undefined {
    const c =
      this.codigos.get(`${banco}:${normalizarTelefono(valor)}`) ??
      this.codigos.get(`${banco}:${digits(valor)}`)
    return c === undefined ? undefined : { codigo: c.codigo, vence_en: new Date(c.venceEn).toISOString() }
  }

  private referencia(): string {
    this.secuencia++
    return `SIM${String(this.secuencia).padStart(9, "0")}`
  }

  private respuesta(op: Operacion): Respuesta {
    if (op.estado === "EN_PROCESO" && op.confirmaEn !== null && op.confirmaEn <= this.now()) {
      op.estado = "APROBADA"
      op.confirmaEn = null
    }
    return {
      operacion_id: op.id,
      estado: op.estado,
      codigo_respuesta: op.codigo,
      ...(op.estado === "RECHAZADA" && DESCRIPCIONES[op.codigo] !== undefined
        ? { descripcion: DESCRIPCIONES[op.codigo] }
        : {}),
      referencia: op.referencia,
      endtoend: op.endtoend
    }
  }

  private registrar(
    id: string,
    tipo: Tipo,
    monto: number,
    result: { codigo: Codigo; origen?: string; destino?: string; diferirMs?: number | undefined }
  ): Respuesta {
    const aprobada = result.codigo === CODIGOS.APROBADA
    const diferir = aprobada && result.diferirMs !== undefined && result.diferirMs > 0
    const op: Operacion = {
      id,
      tipo,
      estado: !aprobada ? "RECHAZADA" : tipo === "codigo" ? "ENVIADO" : diferir ? "EN_PROCESO" : "APROBADA",
      codigo: result.codigo,
      referencia: aprobada ? this.referencia() : null,
      endtoend:
        aprobada && tipo !== "codigo" ? `E2E${Date.now().toString(36).toUpperCase()}${this.secuencia}` : null,
      confirmaEn: diferir ? this.now() + (result.diferirMs ?? 0) : null,
      monto,
      origen: result.origen ?? null,
      destino: result.destino ?? null,
      devuelto: 0,
      dia: this.hoy()
    }
    this.operaciones.set(id, op)
    return this.respuesta(op)
  }

  /** The earlier answer for this operation id, if any: the same id never moves money twice. */
  previa(id: string): Respuesta | undefined {
    const op = this.operaciones.get(id)
    return op === undefined ? undefined : this.respuesta(op)
  }

  /** Records a forced rejection (fault injection) so a later query answers the same. */
  rechazar(id: string, tipo: Tipo, monto: number, codigo: Codigo): Respuesta {
    return this.previa(id) ?? this.registrar(id, tipo, monto, { codigo })
  }

  private caido(...bancos: ReadonlyArray<string | undefined>): boolean {
    return bancos.some((b) => b !== undefined && this.config.bancosCaidos.includes(b))
  }

  private limites(c: Cuenta, monto: number): Codigo | null {
    if (c.dia !== this.hoy()) {
      c.dia = this.hoy()
      c.usado_hoy = 0
    }
    if (c.minimo_operacion !== null && monto < c.minimo_operacion) return CODIGOS.MONTO_INVALIDO
    if (c.limite_operacion !== null && monto > c.limite_operacion) return CODIGOS.EXCEDE_LIMITE
    if (c.limite_diario !== null && c.usado_hoy + monto > c.limite_diario) return CODIGOS.EXCEDE_LIMITE
    if (c.saldo < monto) return CODIGOS.SALDO_INSUFICIENTE
    return null
  }

  /** The payer's checks; a code request (`soloIdentidad`) does not look at money yet. */
  private checkOrigen(parte: Parte, monto: number, c2p: boolean, soloIdentidad = false): Codigo | Cuenta {
    const c = this.buscar(parte)
    if (c === undefined) return CODIGOS.CUENTA_NO_EXISTE
    if (!mismaIdentificacion(c.identificacion, parte.identificacion)) return CODIGOS.BENEFICIARIO_NO_COINCIDE
    if (c.bloqueada) return CODIGOS.CUENTA_BLOQUEADA
    if (c2p && !c.afiliado_c2p) return CODIGOS.NO_AFILIADO
    if (!c.acepta_debito) return CODIGOS.CUENTA_NO_DEBITO
    return soloIdentidad ? c : (this.limites(c, monto) ?? c)
  }

  private checkDestino(parte: Parte, pagoMovil: boolean): Codigo | Cuenta {
    const c = this.buscar(parte)
    if (c === undefined) return CODIGOS.CUENTA_NO_EXISTE
    if (!mismaIdentificacion(c.identificacion, parte.identificacion)) return CODIGOS.BENEFICIARIO_NO_COINCIDE
    if (c.bloqueada) return CODIGOS.CUENTA_BLOQUEADA
    if (pagoMovil && !c.afiliado_c2p) return CODIGOS.NO_AFILIADO
    if (!c.acepta_credito) return CODIGOS.CUENTA_NO_CREDITO
    return c
  }

  private mover(origen: Cuenta, destino: Cuenta, monto: number): void {
    origen.saldo -= monto
    origen.usado_hoy += monto
    destino.saldo += monto
  }

  /** C2P step 1: the payer's bank sends a one-time code to the payer. */
  solicitarCodigo(input: { operacion_id: string; monto: number; pagador: Parte }): Respuesta {
    const previa = this.previa(input.operacion_id)
    if (previa !== undefined) return previa
    if (this.caido(input.pagador.banco))
      return this.registrar(input.operacion_id, "codigo", input.monto, {
        codigo: CODIGOS.BANCO_NO_DISPONIBLE
      })
    const origen = this.checkOrigen(input.pagador, input.monto, true, true)
    if (typeof origen === "string")
      return this.registrar(input.operacion_id, "codigo", input.monto, { codigo: origen })
    const codigo = this.config.codigoFijo ?? String(randomInt(0, 100_000_000)).padStart(8, "0")
    const venceEn = this.now() + this.config.validezCodigoMs
    const key = origen.telefono ?? origen.numero
    this.codigos.set(`${origen.banco}:${key}`, { codigo, venceEn, usado: false })
    this.contadores.codigos_emitidos++
    return this.registrar(input.operacion_id, "codigo", input.monto, { codigo: CODIGOS.APROBADA })
  }

  /** C2P step 2: debits the payer with the code and credits the collector. */
  debitar(
    input: { operacion_id: string; monto: number; otp: string; pagador: Parte; cobrador: Parte },
    diferirMs?: number
  ): Respuesta {
    const previa = this.previa(input.operacion_id)
    if (previa !== undefined) return previa
    const reg = (codigo: Codigo) => this.registrar(input.operacion_id, "debito", input.monto, { codigo })
    if (this.caido(input.pagador.banco, input.cobrador.banco)) return reg(CODIGOS.BANCO_NO_DISPONIBLE)
    if (!Number.isSafeInteger(input.monto) || input.monto <= 0) return reg(CODIGOS.MONTO_INVALIDO)
    const origen = this.checkOrigen(input.pagador, input.monto, true)
    if (typeof origen === "string") return reg(origen)
    const code = this.codigos.get(`${origen.banco}:${origen.telefono ?? origen.numero}`)
    if (code === undefined || code.usado || code.venceEn < this.now() || code.codigo !== input.otp)
      return reg(CODIGOS.OTP_INVALIDO)
    const destino = this.checkDestino(input.cobrador, false)
    if (typeof destino === "string") return reg(destino)
    code.usado = true
    this.mover(origen, destino, input.monto)
    this.contadores.debitos_aplicados++
    return this.registrar(input.operacion_id, "debito", input.monto, {
      codigo: CODIGOS.APROBADA,
      origen: cuentaKey(origen.banco, origen.numero),
      destino: cuentaKey(destino.banco, destino.numero),
      diferirMs
    })
  }

  /** Sends money: pago móvil confirms at once, crédito inmediato after `confirmacionCreditoMs`. */
  transferir(
    input: {
      operacion_id: string
      monto: number
      ordenante: Parte
      beneficiario: Parte
      via: "credito_inmediato" | "pago_movil"
      banco_ruta?: string | undefined
    },
    diferirMs?: number
  ): Respuesta {
    const previa = this.previa(input.operacion_id)
    if (previa !== undefined) return previa
    const reg = (codigo: Codigo) =>
      this.registrar(input.operacion_id, "transferencia", input.monto, { codigo })
    if (this.caido(input.banco_ruta, input.ordenante.banco, input.beneficiario.banco))
      return reg(CODIGOS.BANCO_NO_DISPONIBLE)
    if (!Number.isSafeInteger(input.monto) || input.monto <= 0) return reg(CODIGOS.MONTO_INVALIDO)
    const pagoMovil = input.via === "pago_movil"
    if (pagoMovil && input.beneficiario.tipo !== "telefono") return reg(CODIGOS.NO_SOPORTADO)
    const origen = this.checkOrigen(input.ordenante, input.monto, false)
    if (typeof origen === "string") return reg(origen)
    const destino = this.checkDestino(input.beneficiario, pagoMovil)
    if (typeof destino === "string") return reg(destino)
    this.mover(origen, destino, input.monto)
    this.contadores.creditos_aplicados++
    return this.registrar(input.operacion_id, "transferencia", input.monto, {
      codigo: CODIGOS.APROBADA,
      origen: cuentaKey(origen.banco, origen.numero),
      destino: cuentaKey(destino.banco, destino.numero),
      diferirMs: diferirMs ?? (pagoMovil ? 0 : this.config.confirmacionCreditoMs)
    })
  }

  /** Gives back (part of) an approved debit: a same-day reversal or a refund. */
  devolver(
    tipo: "reverso" | "devolucion",
    input: { operacion_id: string; original_id: string; monto: number }
  ): Respuesta {
    const previa = this.previa(input.operacion_id)
    if (previa !== undefined) return previa
    const reg = (codigo: Codigo) => this.registrar(input.operacion_id, tipo, input.monto, { codigo })
    const original = this.operaciones.get(input.original_id)
    if (original === undefined || original.origen === null || original.destino === null)
      return reg(CODIGOS.NO_ENCONTRADA)
    if (original.estado === "RECHAZADA") return reg(CODIGOS.NO_ENCONTRADA)
    const pagador = this.cuentas.get(original.origen)
    const cobrador = this.cuentas.get(original.destino)
    if (pagador === undefined || cobrador === undefined) return reg(CODIGOS.CUENTA_NO_EXISTE)
    if (this.caido(pagador.banco, cobrador.banco)) return reg(CODIGOS.BANCO_NO_DISPONIBLE)
    if (tipo === "reverso") {
      if (this.config.bancosSinReverso.includes(pagador.banco)) return reg(CODIGOS.NO_SOPORTADO)
      if (original.dia !== this.hoy()) return reg(CODIGOS.FUERA_DE_HORARIO)
    }
    const monto = tipo === "reverso" ? original.monto - original.devuelto : input.monto
    if (monto <= 0 || original.devuelto + monto > original.monto) return reg(CODIGOS.MONTO_INVALIDO)
    if (cobrador.saldo < monto) return reg(CODIGOS.SALDO_INSUFICIENTE)
    cobrador.saldo -= monto
    pagador.saldo += monto
    original.devuelto += monto
    if (tipo === "reverso") this.contadores.reversos_aplicados++
    else this.contadores.devoluciones_aplicadas++
    return this.registrar(input.operacion_id, tipo, monto, {
      codigo: CODIGOS.APROBADA,
      origen: original.destino,
      destino: original.origen
    })
  }
}
