/**
 * The operation result of SPEC (`Resultado`) and the normalised rejection reasons every bank
 * adapter maps its own codes to. Responses never carry `banco_usado` or `raw`.
 */
import { Schema } from "effect"
import { OperationStates } from "./Operation.js"

/** SPEC's `motivo_rechazo` values, the same set for all banks. */
export const MotivosRechazo = [
  "SALDO_INSUFICIENTE",
  "OTP_INVALIDO",
  "CUENTA_NO_EXISTE",
  "CUENTA_BLOQUEADA",
  "CUENTA_NO_DEBITO",
  "CUENTA_NO_CREDITO",
  "MONTO_INVALIDO",
  "EXCEDE_LIMITE",
  "BENEFICIARIO_NO_COINCIDE",
  "NO_AFILIADO_SERVICIO",
  "BANCO_NO_DISPONIBLE",
  "DUPLICADA",
  "FUERA_DE_HORARIO",
  "CANCELADA_POR_PAGADOR",
  "PENDIENTE_BCV",
  "RECHAZO_TECNICO",
  "FIRMA_AUTH",
  "NO_SOPORTADO",
  "BLOQUEO_RIESGO",
  "SIN_DEBITO_EN_EXTRACTO",
  "DESCONOCIDO"
] as const
export const MotivoRechazo = Schema.Literal(...MotivosRechazo)
export type MotivoRechazo = typeof MotivoRechazo.Type

/** Plain Spanish for the payer, shown on the checkout page after a rejection. */
export const motivoParaPagador: Readonly<Record<MotivoRechazo, string>> = {
  SALDO_INSUFICIENTE: "Tu cuenta no tiene saldo suficiente.",
  OTP_INVALIDO: "El código es incorrecto o ya venció. Pide un código nuevo.",
  CUENTA_NO_EXISTE: "El banco no encontró la cuenta asociada a esos datos.",
  CUENTA_BLOQUEADA: "Tu cuenta está bloqueada. Comunícate con tu banco.",
  CUENTA_NO_DEBITO: "Tu cuenta no admite este tipo de débito.",
  CUENTA_NO_CREDITO: "La cuenta de destino no admite créditos.",
  MONTO_INVALIDO: "El monto no es válido para tu cuenta.",
  EXCEDE_LIMITE: "El monto supera un límite de tu banco o de tu cuenta.",
  BENEFICIARIO_NO_COINCIDE: "El teléfono o la cédula no coinciden con los registrados en tu banco.",
  NO_AFILIADO_SERVICIO: "No estás afiliado al servicio de pago de tu banco.",
  BANCO_NO_DISPONIBLE: "Tu banco no está disponible en este momento. Intenta de nuevo en unos minutos.",
  DUPLICADA: "Esta operación ya fue procesada.",
  FUERA_DE_HORARIO: "Tu banco no está operando en este horario.",
  CANCELADA_POR_PAGADOR: "Cancelaste la operación.",
  PENDIENTE_BCV: "El pago está en liquidación en el Banco Central.",
  RECHAZO_TECNICO: "Tu banco tuvo una falla técnica. Intenta de nuevo en unos minutos.",
  FIRMA_AUTH: "El banco rechazó la operación por un problema de configuración.",
  NO_SOPORTADO: "Tu banco no admite esta operación.",
  BLOQUEO_RIESGO: "El pago fue bloqueado por controles de seguridad.",
  SIN_DEBITO_EN_EXTRACTO: "No se encontró el débito en el extracto bancario.",
  DESCONOCIDO: "El banco rechazó el pago sin indicar el motivo."
}

/** SPEC's operation result. `motivo_rechazo` is set only when `estado` is `RECHAZADA`. */
export const Resultado = Schema.Struct({
  id: Schema.String,
  estado: Schema.Literal(...OperationStates),
  referencia_banco: Schema.NullOr(Schema.String),
  endtoend: Schema.NullOr(Schema.String),
  motivo_rechazo: Schema.NullOr(MotivoRechazo),
  intentos: Schema.Int
}).annotations({ identifier: "Resultado" })
export interface Resultado extends Schema.Schema.Type<typeof Resultado> {}
