/**
 * Configuración: the merchant's configuration as `GET /config` shows it, read only (SPEC: the
 * money-critical configuration is edited only by Switch's administrator; `PUT /config` is 403).
 */
import type { ConfigView } from "@switch/sdk"
import { type ReactNode, useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { Link } from "../router.js"
import { Propinas } from "./Propinas.js"
import { ResumenDiario } from "./ResumenDiario.js"

/** `1.5` as `1,5 %`. */
export const porcentaje = (value: number) => `${String(value).replace(".", ",")} %`

const ESTADO: Readonly<Record<string, string>> = {
  pendiente: "Pendiente de aprobación",
  aprobado: "Aprobado",
  activo: "Activo",
  suspendido: "Suspendido"
}

const siNo = (value: boolean) => (value ? "Habilitado" : "No habilitado")

const Dato = ({ titulo, children }: { readonly titulo: string; readonly children: ReactNode }) => (
  <div>
    <dt>{titulo}</dt>
    <dd>{children}</dd>
  </div>
)

export const Configuracion = () => {
  const [config, setConfig] = useState<ConfigView | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    sw.config.get().then(setConfig, (e) => setError(errorText(e)))
  }, [])
  return (
    <section>
      <Title>Configuración</Title>
      <p className="nota">
        Las comisiones, la liquidación y las habilitaciones las ajusta Switch al aprobar tu comercio; aquí las
        consultas. Para cambiarlas, escribe a soporte. Tus llaves y webhooks están en{" "}
        <Link to="/desarrolladores">Desarrolladores</Link>.
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {config === null ? (
        error === null ? (
          <p role="status">Cargando…</p>
        ) : null
      ) : (
        <>
          <h2>Comercio</h2>
          <dl className="datos">
            <Dato titulo="Nombre">{config.nombre}</Dato>
            <Dato titulo="Código">
              <code>{config.comercio}</code>
            </Dato>
            <Dato titulo="Tipo">{config.tipo === "empresa" ? "Empresa" : "Persona"}</Dato>
            <Dato titulo="Estado">{ESTADO[config.estado] ?? config.estado}</Dato>
            <Dato titulo="Nivel de verificación (KYC)">{config.kyc_tier}</Dato>
            <Dato titulo="Modo de esta sesión">{config.mode === "test" ? "Prueba" : "Live"}</Dato>
          </dl>
          <h2>Cobros y liquidación</h2>
          <dl className="datos">
            <Dato titulo="Comisión">
              {porcentaje(config.comision_pct)}
              {config.comision_acordada ? " (acordada)" : ""}
            </Dato>
            <Dato titulo="IGTF">
              {porcentaje(config.igtf_pct)}: {config.igtf_aplica}
            </Dato>
            <Dato titulo="Liquidación">
              {config.frecuencia_liquidacion === "inmediata" ? "Inmediata, al pagarse cada link" : "Diaria"}
            </Dato>
            <Dato titulo="Propina máxima">{porcentaje(config.propina_max_pct)} del monto</Dato>
          </dl>
          <h2>Habilitaciones</h2>
          <dl className="datos">
            <Dato titulo="Pagos a terceros">{siNo(config.pagar_habilitado)}</Dato>
            <Dato titulo="Reparto (split)">{siNo(config.split_habilitado)}</Dato>
            <Dato titulo="Cobro con tarjeta">{siNo(config.tarjeta_habilitada)}</Dato>
          </dl>
        </>
      )}
      <Propinas />
      <ResumenDiario />
    </section>
  )
}
