/** `register`: public self-signup; prints the test key once and can save it as a profile. */

import { Switch } from "@switch/sdk"
import type { Command } from "commander"
import { action, oneOf, optionWithValues } from "../Action.js"
import { profileName, readConfig, saveProfile } from "../Config.js"

interface RegisterOptions {
  codigo: string
  nombre: string
  identificacion: string
  tipoDoc?: string
  email: string
  tipo?: "empresa" | "personal"
  login?: boolean
}

const TIPOS_DOC = ["V", "E", "J", "P", "G"] as const
const TIPOS = ["empresa", "personal"] as const

export const registerRegister = (program: Command) => {
  program
    .command("register")
    .description("registra un comercio nuevo (público) y muestra su llave de prueba una sola vez")
    .requiredOption("--codigo <codigo>", "3 a 32 caracteres: a-z, 0-9, _ o -")
    .requiredOption("--nombre <nombre>", "nombre del comercio")
    .requiredOption("--identificacion <id>", "cédula o RIF, por ejemplo J-07013380-5")
    .addOption(optionWithValues("--tipo-doc <tipo>", "tipo de documento", TIPOS_DOC, oneOf(TIPOS_DOC)))
    .requiredOption("--email <correo>", "correo de contacto")
    .addOption(optionWithValues("--tipo <tipo>", "tipo de comercio", TIPOS, oneOf(TIPOS)))
    .option("--login", "guarda la llave nueva en el perfil (--profile) para usarla de inmediato")
    .action(
      action(async (context, options: RegisterOptions) => {
        const { baseUrl } = context.resolved()
        const result = await Switch.registrar(
          {
            codigo: options.codigo,
            nombre: options.nombre,
            identificacion: options.identificacion,
            email: options.email,
            ...(options.tipoDoc === undefined ? {} : { tipo_doc: options.tipoDoc }),
            ...(options.tipo === undefined ? {} : { tipo: options.tipo })
          } as Parameters<typeof Switch.registrar>[0],
          { baseUrl, fetch: context.fetch }
        )
        let profile: string | null = null
        if (options.login) {
          profile = profileName(context.options, context.env, readConfig(context.env))
          saveProfile(context.env, profile, { key: result.key, base_url: baseUrl })
        }
        const o = context.output
        o.result({ ...result, perfil: profile }, () => {
          o.line(
            `${o.green("✓")} Comercio ${result.codigo} registrado (estado ${result.estado}, KYC ${result.kyc_tier})`
          )
          o.line(`  llave de prueba: ${o.bold(result.key)}`)
          if (profile !== null) o.line(`  guardada en el perfil ${profile}`)
          else o.note(o.yellow("Guarda la llave ahora: no se vuelve a mostrar (o usa --login)."))
          o.note(o.dim("Operar en live requiere completar KYC y la aprobación de un administrador."))
        })
        return 0
      })
    )
}
