// Reads a vitest JSON report and fails unless the suite ran tests and every one passed:
// a skipped, pending or empty suite is a failure in CI.
import { readFileSync } from "node:fs"

const [file, name] = process.argv.slice(2)
const report = JSON.parse(readFileSync(file, "utf8"))
const { numTotalTests, numPassedTests, numFailedTests, numPendingTests, numTodoTests } = report
console.log(
  `${name}: ${numPassedTests}/${numTotalTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped, ${numTodoTests} todo`
)
if (
  numTotalTests === 0 ||
  numPassedTests !== numTotalTests ||
  numFailedTests + numPendingTests + numTodoTests > 0
) {
  console.error(`${name} failed, was skipped, or ran no tests`)
  process.exit(1)
}
