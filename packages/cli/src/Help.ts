/**
 * The help in Spanish, as the rest of the product: commander's framing (`Uso:`, `Opciones:`,
 * `[opciones]`, the help option and command, the version), its usage errors, and examples for
 * every command. Commander writes its framing in English; its `Help` class is configured here
 * (`configureHelp`), its errors translated where they are written (`configureOutput`).
 */
import { type Argument, type Command, Help, type Option } from "commander"

const TITLES: Readonly<Record<string, string>> = {
  "Usage:": "Uso:",
  "Options:": "Opciones:",
  "Arguments:": "Argumentos:",
  "Commands:": "Comandos:",
  "Global Options:": "Opciones globales:"
}

const words = (text: string) =>
  text.replace(/\[options\]/g, "[opciones]").replace(/\[command\]/g, "[comando]")

/** Commander's `(default: x)`, `(choices: ...)`, `(env: X)`, `(preset: x)` in Spanish. */
const extras = (text: string) =>
  text
    .replace(/\bdefault: /g, "por defecto: ")
    .replace(/\bchoices: /g, "valores: ")
    .replace(/\benv: /g, "variable: ")
    .replace(/\bpreset: /g, "sin valor: ")

/** The overrides given to `configureHelp`: each calls commander's own and translates its words. */
export const helpConfiguration: Partial<Help> = {
  styleTitle: (title: string) => TITLES[title] ?? title,
  commandUsage(this: Help, command: Command) {
    return words(Help.prototype.commandUsage.call(this, command))
  },
  subcommandTerm(this: Help, command: Command) {
    return words(Help.prototype.subcommandTerm.call(this, command))
  },
  optionDescription(this: Help, option: Option) {
    return extras(Help.prototype.optionDescription.call(this, option))
  },
  argumentDescription(this: Help, argument: Argument) {
    return extras(Help.prototype.argumentDescription.call(this, argument))
  }
}

/** Commander's usage errors, in Spanish. */
const ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^error: unknown command '(.*)'/, "error: comando desconocido '$1'"],
  [/^error: unknown option '(.*)'/, "error: opción desconocida '$1'"],
  [/^error: missing required argument '(.*)'/, "error: falta el argumento obligatorio '$1'"],
  [/^error: option '(.*)' argument missing/, "error: falta el valor de la opción '$1'"],
  [/^error: required option '(.*)' not specified/, "error: falta la opción obligatoria '$1'"],
  [
    /^error: option '(.*)' argument '(.*)' is invalid\./,
    "error: el valor '$2' de la opción '$1' no es válido:"
  ],
  [
    /^error: option '(.*)' value '(.*)' from env '(.*)' is invalid\./,
    "error: el valor '$2' de la opción '$1' (variable $3) no es válido:"
  ],
  [
    /^error: command-argument value '(.*)' is invalid for argument '(.*)'\./,
    "error: el valor '$1' del argumento '$2' no es válido."
  ],
  [/Allowed choices are (.*)\./, "Valores admitidos: $1."],
  [
    /^error: too many arguments for '(.*)'\. Expected (\d+) arguments? but got (\d+)\./,
    "error: demasiados argumentos para '$1': admite $2 y recibió $3."
  ],
  [
    /^error: too many arguments\. Expected (\d+) arguments? but got (\d+)\./,
    "error: demasiados argumentos: admite $1 y recibió $2."
  ],
  [/^error: (.*) cannot be used with (.*)$/m, "error: $1 no se puede usar con $2"],
  [/\(Did you mean one of (.*)\?\)/, "(¿quiso decir uno de estos? $1)"],
  [/\(Did you mean (.*)\?\)/, "(¿quiso decir $1?)"]
]

export const spanishError = (text: string): string =>
  ERRORS.reduce((out, [pattern, spanish]) => out.replace(pattern, spanish), text)

/**
 * Examples for each command path, shown at the end of its help. Every command has them (a test
 * walks the tree); a group's are those of its commands worth seeing first.
 */
export const EXAMPLES: Readonly<Record<string, ReadonlyArray<string>>> = {
  "": [
    "switch login --key demo:sk_test_123",
    'switch links create --monto 150,50 --concepto "Pedido 1042"',
    "switch listen --forward-to http://localhost:3000/webhook"
  ],
  login: [
    "switch login --key demo:sk_test_123",
    'printf %s "$SWITCH_KEY" | switch login --key-stdin --profile ci'
  ],
  logout: ["switch logout", "switch logout --profile ci"],
  whoami: ["switch whoami", "switch whoami --profile ci --json"],
  profiles: ["switch profiles list", "switch profiles use ci"],
  "profiles list": ["switch profiles list"],
  "profiles use": ["switch profiles use ci"],
  links: [
    'switch links create --monto 150,50 --concepto "Pedido 1042" --qr',
    "switch links list --estado pendiente,pagado"
  ],
  "links create": [
    'switch links create --monto 150,50 --concepto "Pedido 1042"',
    'switch links create --monto 20 --concepto "Taza" --expira-horas 2 --metadata pedido=1042 --qr'
  ],
  "links list": [
    "switch links list --estado pendiente,pagado --limit 20",
    "switch links list --desde 2026-03-01 --q Pedido --all --json"
  ],
  "links get": ["switch links get 41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"],
  "links cancel": ["switch links cancel 41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"],
  "links simulate": [
    "switch links simulate 41a95a5c-1c5b-4e85-a2a8-06d5747cdccf pagado",
    "switch links simulate 41a95a5c-1c5b-4e85-a2a8-06d5747cdccf expirado"
  ],
  lotes: ["switch lotes create --csv pedidos.csv", "switch lotes list"],
  "lotes create": [
    "switch lotes create --csv pedidos.csv",
    "switch lotes create --csv pedidos.csv --nombre Marzo --out -"
  ],
  "lotes list": ["switch lotes list --limit 10"],
  "lotes get": ["switch lotes get 5a0c2f1e-8b7d-4c3a-9e6f-1d2c3b4a5f6e"],
  "lotes cancel": ["switch lotes cancel 5a0c2f1e-8b7d-4c3a-9e6f-1d2c3b4a5f6e"],
  verify: ["switch verify SW-YHD5J-7MYQF", "switch verify SW-YHD5J-7MYQF && entregar-pedido"],
  transacciones: ["switch transacciones list --limit 20"],
  "transacciones list": ["switch transacciones list --limit 20", "switch transacciones list --all --json"],
  config: ["switch config", "switch config --json"],
  clientes: ["switch clientes list"],
  "clientes list": ["switch clientes list --limit 20"],
  liquidaciones: ["switch liquidaciones list --estado PENDIENTE"],
  "liquidaciones list": [
    "switch liquidaciones list --estado PENDIENTE",
    "switch liquidaciones list --all --json"
  ],
  webhooks: [
    "switch webhooks create --url https://tienda.example/webhook --eventos link.pagado",
    "switch webhooks test 5270fc15-9c50-4c70-af1e-6eb1f3fccd23"
  ],
  "webhooks list": ["switch webhooks list"],
  "webhooks create": [
    "switch webhooks create --url https://tienda.example/webhook",
    "switch webhooks create --url https://tienda.example/webhook --eventos link.pagado,link.acreditado"
  ],
  "webhooks update": [
    "switch webhooks update 5270fc15-9c50-4c70-af1e-6eb1f3fccd23 --eventos link.pagado,webhook.test",
    "switch webhooks update 5270fc15-9c50-4c70-af1e-6eb1f3fccd23 --estado inactivo"
  ],
  "webhooks delete": ["switch webhooks delete 5270fc15-9c50-4c70-af1e-6eb1f3fccd23"],
  "webhooks test": ["switch webhooks test 5270fc15-9c50-4c70-af1e-6eb1f3fccd23"],
  "webhooks deliveries": ["switch webhooks deliveries 5270fc15-9c50-4c70-af1e-6eb1f3fccd23"],
  listen: [
    "export SWITCH_WEBHOOK_SECRET=$(switch listen --print-secret)   # estable por comercio",
    "switch listen --forward-to http://localhost:3000/webhook --events link.pagado"
  ],
  trigger: [
    "switch trigger link.pagado",
    "switch trigger transaccion.rechazada --monto 25",
    "switch trigger webhook.test --webhook 5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
    "switch trigger link.devuelto --forward-to http://localhost:3000/webhook"
  ],
  register: [
    'switch register --codigo tienda --nombre "Tienda Ana" --identificacion J-07013380-5 --email ana@tienda.example --login'
  ],
  admin: ['switch admin approve tienda --admin-token "$TOKEN"', "switch admin get tienda"],
  "admin approve": ["switch admin approve tienda --cuenta @cuenta.json"],
  "admin review": ["switch admin review tienda"],
  "admin suspend": ["switch admin suspend tienda"],
  "admin set": [
    "switch admin set tienda comision_pct=1.5 liquidacion_inmediata=true",
    "switch admin set tienda tope_diario=300USD monto_max=null",
    "switch admin set tienda cuenta_liquidacion=@cuenta.json"
  ],
  "admin get": ["switch admin get tienda --json"],
  "admin operador": ["switch admin operador crear ana@switch.example --rol soporte"],
  "admin operador crear": [
    "SWITCH_OPERADOR_PASSWORD=... switch admin operador crear ana@switch.example --rol riesgo"
  ],
  "admin tasa-bcv": ["switch admin tasa-bcv 36.5"],
  get: ["switch get /switch/v1/links?estado=pagado", "switch get config"],
  post: [
    'switch post links -d \'{"monto":10,"concepto":"Prueba"}\'',
    "switch post /switch/v1/links -d @link.json"
  ],
  delete: ["switch delete /switch/v1/webhooks/5270fc15-9c50-4c70-af1e-6eb1f3fccd23"],
  fixtures: ["switch fixtures pedido.json", "switch fixtures pedido.json --json"],
  logs: ["switch logs tail"],
  "logs tail": [
    "switch logs tail",
    "switch logs tail --status 4xx,5xx --method POST --path links",
    "switch logs tail --limit 50 --no-follow --json"
  ],
  events: ["switch events list --evento link.pagado"],
  "events list": ["switch events list --evento link.pagado --limit 10"],
  "events resend": [
    "switch events resend evt_69a0c9b4-fa95-4f47-807a-1d6907506714",
    "switch events resend evt_69a0c9b4-fa95-4f47-807a-1d6907506714 --forward-to http://localhost:3000/webhook"
  ],
  completion: [
    "source <(switch completion bash)",
    "switch completion zsh > ~/.zfunc/_switch",
    "command switch completion fish | source"
  ]
}

/** Each command's path in the tree: `""`, `links`, `links create`, ... */
export const commandPath = (command: Command): string => {
  const names: Array<string> = []
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name())
  return names.join(" ")
}

/** Adds each command's examples to the end of its help. */
export const addExamples = (program: Command) => {
  const walk = (command: Command) => {
    const examples = EXAMPLES[commandPath(command)]
    if (examples !== undefined) {
      command.addHelpText("after", `\nEjemplos:\n${examples.map((line) => `  ${line}`).join("\n")}`)
    }
    for (const sub of command.commands) walk(sub)
  }
  walk(program)
}
