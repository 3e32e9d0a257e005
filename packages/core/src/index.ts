/**
 * @switch/core: the pure domain of the Switch payments service. No I/O: time, ids and the
 * bank come in as arguments or as the ports in {@link Ports}.
 */
export * as Amount from "./Amount.js"
export * as BankCalendar from "./BankCalendar.js"
export * as Caps from "./Caps.js"
export * as CuentasAprobadas from "./CuentasAprobadas.js"
export * as Fees from "./Fees.js"
export * as Instrument from "./Instrument.js"
export * as LinkMachine from "./LinkMachine.js"
export * as LinkRequest from "./LinkRequest.js"
export * as MiPagina from "./MiPagina.js"
export * as Money from "./Money.js"
export * as Operation from "./Operation.js"
export * as Ports from "./Ports.js"
export * as RateLimit from "./RateLimit.js"
export * as ReceiptCode from "./ReceiptCode.js"
export * as Reembolso from "./Reembolso.js"
export * as Resultado from "./Resultado.js"
export * as Split from "./Split.js"
export * as Validation from "./Validation.js"
export * as Venezuela from "./Venezuela.js"
