/**
 * The simulator's own answer codes, in the style of Venezuelan bank switches (two characters,
 * `00` approved). Deliberately not Switch's `motivo_rechazo` names: the server's HTTP bank
 * adapter normalises them, as it would for a real bank.
 */

export const CODIGOS = {
  APROBADA: "00",
  GENERICO: "05",
  PENDIENTE_BCV: "09",
  MONTO_INVALIDO: "13",
  CUENTA_NO_EXISTE: "14",
  CANCELADA_POR_PAGADOR: "17",
  NO_ENCONTRADA: "25",
  NO_SOPORTADO: "40",
  SALDO_INSUFICIENTE: "51",
  OTP_INVALIDO: "55",
  BENEFICIARIO_NO_COINCIDE: "56",
  CUENTA_NO_DEBITO: "57",
  CUENTA_NO_CREDITO: "58",
  BLOQUEO_RIESGO: "59",
  EXCEDE_LIMITE: "61",
  CUENTA_BLOQUEADA: "62",
  FIRMA_AUTH: "63",
  NO_AFILIADO: "80",
  BANCO_NO_DISPONIBLE: "91",
  FUERA_DE_HORARIO: "92",
  DUPLICADA: "94",
  RECHAZO_TECNICO: "96"
} as const

export type Codigo = (typeof CODIGOS)[keyof typeof CODIGOS]

/** The words a rejection carries beside its code (`descripcion`), as a bank's switch writes them. */
export const DESCRIPCIONES: Readonly<Record<string, string>> = {
  "05": "Transacción no aprobada por el banco emisor",
  "13": "Monto inválido",
  "14": "Cuenta inexistente",
  "17": "Operación cancelada por el cliente",
  "40": "Operación no soportada",
  "51": "Fondos insuficientes",
  "55": "Clave de pago inválida o vencida",
  "56": "Los datos del beneficiario no coinciden",
  "57": "Cuenta no admite débitos",
  "58": "Cuenta no admite créditos",
  "59": "Operación retenida por control de riesgo",
  "61": "Excede el límite permitido",
  "62": "Cuenta bloqueada",
  "63": "Error de autenticación del afiliado",
  "80": "Cliente no afiliado al servicio",
  "91": "Banco destino no disponible",
  "92": "Fuera del horario de operación",
  "94": "Operación duplicada",
  "96": "Error técnico del banco"
}

/** The simulator's operation states: approved, in process (accepted, not yet confirmed), rejected. */
export type EstadoSim = "ENVIADO" | "APROBADA" | "EN_PROCESO" | "RECHAZADA"

/** Every answer about one operation. */
export interface Respuesta {
  readonly operacion_id: string
  readonly estado: EstadoSim
  readonly codigo_respuesta: string
  /** A rejection's words (DESCRIPCIONES). */
  readonly descripcion?: string
  readonly referencia: string | null
  readonly endtoend: string | null
}
