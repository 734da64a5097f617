"""
vendor-outputs local Lambda: one Python execution environment (src/cli/local/lambda/python/).

Started by the server with the function's environment variables and its configuration (JSON) as
the only argument. Like the Lambda Python runtime it imports the handler module once ("init"),
then runs one invocation at a time, in the order received. It speaks to the server over two pipes
with length-prefixed frames (4 bytes big-endian, then UTF-8 JSON):

  fd 3, server -> here: ["invoke", request_id, event]
  fd 4, here -> server: ["ready"] | ["init-error", error] | ["log", request_id, level, text]
                        | ["result", request_id, payload_json_or_null, error_or_null, ms]
                        | ["out-of-memory"]

where error is {"errorType", "errorMessage", "trace": [lines]}. print() and sys.stdout/stderr
writes, and the logging module's records, become "log" frames tagged with the running request's
id; what child processes write to the real stdout/stderr reaches the server untagged.

Error types and messages are those of the Lambda Python runtime (awslambdaric): Runtime.MalformedHandlerName,
Runtime.ImportModuleError, Runtime.UserCodeSyntaxError, Runtime.HandlerNotFound, Runtime.MarshalError.
"""
import decimal
import io
import json
import logging
import os
import resource
import struct
import sys
import time
import traceback

COMMANDS_FD = 3
EVENTS_FD = 4
HEADER = struct.Struct(">I")


class Channel:
    """Frames in on fd 3, frames out on fd 4."""

    def receive(self):
        header = self._read(HEADER.size)
        if header is None:
            return None
        body = self._read(HEADER.unpack(header)[0])
        return None if body is None else json.loads(body.decode("utf-8"))

    def send(self, message):
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        self.write_bytes(HEADER.pack(len(body)) + body)

    @staticmethod
    def write_bytes(data):
        view = memoryview(data)
        while len(view) > 0:
            view = view[os.write(EVENTS_FD, view):]

    @staticmethod
    def _read(size):
        chunks = []
        while size > 0:
            chunk = os.read(COMMANDS_FD, min(size, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)


CHANNEL = Channel()
# Built ahead: when memory has run out there may be none left to build it.
OUT_OF_MEMORY_FRAME = HEADER.pack(len(b'["out-of-memory"]')) + b'["out-of-memory"]'


class Invocation:
    """The request id of the running invocation (tags output), none between invocations."""
    request_id = None


class LineWriter(io.TextIOBase):
    """sys.stdout / sys.stderr: each complete line becomes a log frame tagged with the request id."""

    def __init__(self, level):
        super().__init__()
        self.level = level
        self.pending = ""

    def writable(self):
        return True

    def write(self, text):
        self.pending += text
        while "\n" in self.pending:
            line, self.pending = self.pending.split("\n", 1)
            CHANNEL.send(["log", Invocation.request_id, self.level, line])
        return len(text)

    def flush(self):
        if self.pending:
            line, self.pending = self.pending, ""
            CHANNEL.send(["log", Invocation.request_id, self.level, line])


class LambdaLogHandler(logging.Handler):
    """The handler the Lambda runtime puts on the root logger: one record, one log entry."""

    def emit(self, record):
        try:
            CHANNEL.send(["log", Invocation.request_id, record.levelname, self.format(record)])
        except Exception:
            self.handleError(record)


class LambdaLoggerFilter(logging.Filter):
    """Gives every record `aws_request_id`, as the Lambda runtime's filter does."""

    def filter(self, record):
        record.aws_request_id = Invocation.request_id
        return True


def capture_output():
    sys.stdout = LineWriter("INFO")
    sys.stderr = LineWriter("ERROR")
    handler = LambdaLogHandler()
    # The runtime's format is "[%(levelname)s]\t%(asctime)s.%(msecs)03dZ\t%(aws_request_id)s\t%(message)s";
    # the server's terminal already shows the request id and level before each line.
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(LambdaLoggerFilter())
    logging.getLogger().addHandler(handler)


class Fault(Exception):
    """An error of the runtime itself (its errorType is Runtime.*)."""

    def __init__(self, error_type, message, trace=None):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.trace = trace or []

    def report(self):
        return {"errorType": self.error_type, "errorMessage": self.message, "trace": self.trace}


def limit_memory(memory_mb):
    """
    A backstop against one huge allocation (RLIMIT_DATA: heap and private mappings, shared
    libraries not counted): past it an allocation raises MemoryError at once. It is well above
    MemorySize because it also counts thread stacks, which are reserved, not used (8 MB each).
    The bound itself is the process's resident memory, as Lambda counts it: checked here after each
    invocation (its peak) and by the server while one runs.
    """
    try:
        with open("/proc/self/status") as status:
            baseline_kb = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
    except (OSError, StopIteration, ValueError):
        baseline_kb = 16 * 1024
    limit = baseline_kb * 1024 + (2 * memory_mb + BACKSTOP_EXTRA_MB) * 1024 * 1024
    for name in ("RLIMIT_DATA", "RLIMIT_AS"):
        if hasattr(resource, name):
            try:
                resource.setrlimit(getattr(resource, name), (limit, limit))
                return
            except (ValueError, OSError):
                continue


# Room above twice MemorySize for the backstop (about 64 threads' stacks).
BACKSTOP_EXTRA_MB = 512


def peak_resident_mb():
    """
    The process's peak resident memory: Linux's VmHWM, this program's own. Not ru_maxrss where
    VmHWM can be read: Linux carries it over from the process that started this one (fork, then
    exec), so a server using more than MemorySize made every invocation look out of memory.
    """
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def out_of_memory():
    """Tells the server the environment went past its MemorySize, then ends it (Lambda kills it)."""
    try:
        CHANNEL.write_bytes(OUT_OF_MEMORY_FRAME)
    finally:
        os._exit(137)


def load_handler(handler):
    """The handler function `module.function` names, as the Lambda Python runtime imports it."""
    try:
        module_name, function_name = handler.rsplit(".", 1)
    except ValueError as e:
        raise Fault("Runtime.MalformedHandlerName", "Bad handler '{}': {}".format(handler, str(e)))
    try:
        if module_name.split(".")[0] in sys.builtin_module_names:
            raise Fault("Runtime.BuiltInModuleConflict", "Cannot use built-in module {} as a handler module".format(module_name))
        import importlib
        module = importlib.import_module(module_name.replace("/", "."))
    except ImportError as e:
        raise Fault("Runtime.ImportModuleError", "Unable to import module '{}': {}".format(module_name, str(e)))
    except SyntaxError as e:
        trace = ['  File "%s" Line %s\n    %s' % (e.filename, e.lineno, e.text)]
        raise Fault("Runtime.UserCodeSyntaxError", "Syntax error in module '{}': {}".format(module_name, str(e)), trace)
    function = getattr(module, function_name, None)
    if function is None:
        raise Fault("Runtime.HandlerNotFound", "Handler '{}' missing on module '{}'".format(function_name, module_name))
    return function


def user_trace(tb):
    """The stack trace lines from the first frame outside this file (as the runtime trims its own)."""
    frames = traceback.extract_tb(tb)
    for i, frame in enumerate(frames):
        if frame.filename != __file__:
            return traceback.format_list(frames[i:])
    return []


def error_report(error):
    if isinstance(error, Fault):
        return error.report()
    return {"errorType": type(error).__name__, "errorMessage": str(error), "trace": user_trace(error.__traceback__)}


def log_error(report):
    """The runtime logs an unhandled error as "[ERROR] Type: message" and its traceback."""
    lines = ["[ERROR] {}: {}".format(report["errorType"], report["errorMessage"])]
    if report["trace"]:
        lines.append("Traceback (most recent call last):")
        lines.extend(line for entry in report["trace"] for line in entry.rstrip("\n").split("\n"))
    for line in lines:
        CHANNEL.send(["log", Invocation.request_id, "ERROR", line])


class CognitoIdentity:
    cognito_identity_id = None
    cognito_identity_pool_id = None


class LambdaContext:
    """The context object the Lambda Python runtime passes to the handler."""

    def __init__(self, request_id, static, deadline_ms):
        self.aws_request_id = request_id
        self.function_name = static["functionName"]
        self.function_version = static["functionVersion"]
        self.invoked_function_arn = static["invokedFunctionArn"]
        # A string, as the runtime reads it from AWS_LAMBDA_FUNCTION_MEMORY_SIZE.
        self.memory_limit_in_mb = static["memoryLimitInMB"]
        self.log_group_name = static["logGroupName"]
        self.log_stream_name = static["logStreamName"]
        self.identity = CognitoIdentity()
        self.client_context = None
        self._deadline_ms = deadline_ms

    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline_ms - time.time() * 1000))

    def __repr__(self):
        return "LambdaContext([aws_request_id={},log_group_name={},log_stream_name={},function_name={},memory_limit_in_mb={},function_version={},invoked_function_arn={},client_context={},identity={}])".format(
            self.aws_request_id, self.log_group_name, self.log_stream_name, self.function_name, self.memory_limit_in_mb,
            self.function_version, self.invoked_function_arn, self.client_context, self.identity)


def decimal_default(value):
    """The runtime's marshaller writes Decimal values as numbers."""
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError("Object of type {} is not JSON serializable".format(type(value).__name__))


def marshal(result, max_bytes):
    try:
        payload = json.dumps(result, default=decimal_default, ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise Fault("Runtime.MarshalError", "Unable to marshal response: {}".format(str(e)))
    size = len(payload.encode("utf-8"))
    if size > max_bytes:
        raise Fault("Function.ResponseSizeTooLarge",
                    "Response payload size ({} bytes) exceeded maximum allowed payload size ({} bytes).".format(size, max_bytes))
    return payload


def invoke(handler, config, request_id, event):
    Invocation.request_id = request_id
    started = time.perf_counter()
    context = LambdaContext(request_id, config["context"], time.time() * 1000 + config["timeoutMs"])
    payload, error = None, None
    try:
        payload = marshal(handler(event, context), config["maxResponseBytes"])
    except MemoryError:
        out_of_memory()
    except Exception as e:
        error = error_report(e)
        log_error(error)
    if peak_resident_mb() > config["memoryMb"]:
        # Lambda would have ended the environment while the invocation ran.
        out_of_memory()
    sys.stdout.flush()
    sys.stderr.flush()
    ms = (time.perf_counter() - started) * 1000
    Invocation.request_id = None
    CHANNEL.send(["result", request_id, payload, error, ms])


def init(config):
    """Imports the handler; an error ends the environment after reporting it."""
    try:
        return load_handler(config["handler"])
    except MemoryError:
        out_of_memory()
    except Exception as e:
        report = error_report(e)
        log_error(report)
        CHANNEL.send(["init-error", report])
        sys.stdout.flush()
        os._exit(0)


def main():
    config = json.loads(sys.argv[1])
    task_root = os.environ.get("LAMBDA_TASK_ROOT", os.getcwd())
    # The code's folder comes first on the path, where the interpreter put this file's folder.
    sys.path[0] = task_root
    os.chdir(task_root)
    capture_output()
    limit_memory(config["memoryMb"])
    handler = init(config)
    if peak_resident_mb() > config["memoryMb"]:
        out_of_memory()
    CHANNEL.send(["ready"])
    while True:
        command = CHANNEL.receive()
        if command is None:
            return
        if command[0] == "invoke":
            invoke(handler, config, command[1], command[2])


if __name__ == "__main__":
    try:
        main()
    except MemoryError:
        out_of_memory()
