/**
 * The Python bootstrap an execution environment runs: a plain file shipped in the package's
 * `static/python-runtime/`, as the console's files are (five folders up from `src/` and from `lib/`).
 */
import * as path from 'path';

export const PYTHON_RUNTIME_DIR = path.resolve(__dirname, '..', '..', '..', '..', '..', 'static', 'python-runtime');

export const BOOTSTRAP_FILE = path.join(PYTHON_RUNTIME_DIR, 'bootstrap.py');
