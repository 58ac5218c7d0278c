// Python side of the worker. HARNESS runs once after Pyodide loads, in a private dict; the worker then calls its
// `run_block` per code block. API_HELPERS is compiled once and executed into a fresh dict for every block, so a
// block that rebinds a stub, a helper or `_wp_call` cannot change what the next block gets.

/** Helpers used by the generated stubs (apiStubs.ts). `_wp_host_call`, `_wp_dumps`, `_wp_loads` are injected. */
export const API_HELPERS = String.raw`
import sys as _wp_sys
from math import isfinite as _wp_isfinite

class _wp_Missing:
    __slots__ = ()
    def __repr__(self):
        return '<not given>'

_wp_MISSING = _wp_Missing()

def _wp_num(fn, name, v, where=''):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{fn}() argument '{name}'{where} must be a number, not {type(v).__name__}")
    f = float(v)
    if not _wp_isfinite(f):
        raise ValueError(f"{fn}() argument '{name}'{where} must be finite, not {v!r}")
    return f

def _wp_numlist(fn, name, v, n=None):
    want = f'a list of {n} numbers' if n is not None else 'a list of numbers'
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{fn}() argument '{name}' must be {want}, not {type(v).__name__}")
    if n is not None and len(v) != n:
        raise ValueError(f"{fn}() argument '{name}' must be {want}, got {len(v)} items")
    return [_wp_num(fn, name, x, f'[{i}]') for i, x in enumerate(v)]

def _wp_plain(fn, name, v, where='', depth=0):
    if depth > 32:
        raise ValueError(f"{fn}() argument '{name}' is nested too deeply")
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not _wp_isfinite(v):
            raise ValueError(f"{fn}() argument '{name}'{where} must be finite, not {v!r}")
        return v
    if isinstance(v, (list, tuple)):
        return [_wp_plain(fn, name, x, f'{where}[{i}]', depth + 1) for i, x in enumerate(v)]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise TypeError(f"{fn}() argument '{name}'{where} has a non-str key {k!r}")
            out[k] = _wp_plain(fn, name, x, f'{where}[{k!r}]', depth + 1)
        return out
    raise TypeError(f"{fn}() argument '{name}'{where} must be None, bool, a number, str, list or dict, not {type(v).__name__}")

def _wp_check(fn, name, kind, v):
    if kind == 'float':
        return _wp_num(fn, name, v)
    if kind == 'int':
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{fn}() argument '{name}' must be an int, not {type(v).__name__}")
        return int(v)
    if kind == 'str':
        if not isinstance(v, str):
            raise TypeError(f"{fn}() argument '{name}' must be a str, not {type(v).__name__}")
        return v
    if kind == 'bool':
        if not isinstance(v, bool):
            raise TypeError(f"{fn}() argument '{name}' must be a bool (True or False), not {type(v).__name__}")
        return v
    if kind == 'vec3':
        return _wp_numlist(fn, name, v, 3)
    if kind == 'list[float]':
        return _wp_numlist(fn, name, v)
    if kind == 'poses':
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"{fn}() argument '{name}' must be a list of poses, not {type(v).__name__}")
        for i, p in enumerate(v):
            if not isinstance(p, (list, tuple, dict)):
                raise TypeError(f"{fn}() argument '{name}'[{i}] must be a pose (list of numbers or dict), not {type(p).__name__}")
        return _wp_plain(fn, name, v)
    return _wp_plain(fn, name, v)

def _wp_call(fn, params):
    args = []
    missing = None
    for name, kind, v in params:
        if v is _wp_MISSING:
            missing = missing or name
            continue
        if missing is not None:
            raise TypeError(f"{fn}() argument '{missing}' must be given when '{name}' is given")
        args.append(_wp_check(fn, name, kind, v))
    for stream in (_wp_sys.stdout, _wp_sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    # The innermost line of the generated block that led here (the debugger shows it; informational only).
    line = None
    frame = _wp_sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == '<code>':
            line = frame.f_lineno
            break
        frame = frame.f_back
    reply = _wp_loads(_wp_host_call(_wp_dumps([fn, args, line], allow_nan=False)))
    if not reply['ok']:
        raise RuntimeError(reply['error'])
    return reply.get('value')
`;

/**
 * Turns an exception from generated code into {type, message, line}, the line counted in the block itself
 * ('<code>'); shared by the Pyodide harness and the trusted-workspace python3 runner.
 */
export const DESCRIBE_ERROR = String.raw`
def _wp_describe(e):
    line = None
    if isinstance(e, SyntaxError):
        message = e.msg
        if e.filename == '<code>':
            line = e.lineno
    else:
        try:
            message = str(e)
        except BaseException:
            message = '<unprintable exception>'
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == '<code>':
            line = tb.tb_lineno
        tb = tb.tb_next
    out = {'type': type(e).__name__, 'message': message}
    if line is not None:
        out['line'] = line
    return out
`;

/** Runs once per worker. Defines run_block(code, stubs, api_names, persist, host_call, space_id) -> JSON text. */
export const HARNESS = String.raw`
import sys, builtins, json, os, posix

# Emscripten would run os.system through the host's child_process (denied, which kills the interpreter); fail early
# with a Python error instead.
def _wp_no_programs(*args, **kwargs):
    raise OSError(38, 'running programs is not available in the Waypoint sandbox')
os.system = posix.system = _wp_no_programs

_wp_helpers = compile(_wp_helpers_src, '<waypoint-api>', 'exec')
_wp_builtins0 = dict(builtins.__dict__)
_wp_streams0 = (sys.stdout, sys.stderr, sys.stdin)
_wp_recursion0 = sys.getrecursionlimit()
_wp_dumps = json.dumps
_wp_loads = json.loads
_wp_persistent = None
# Context the blocks run in (context variables, decimal's context); EPISODE_RESET gives each episode a fresh one.
_wp_context = None

def _wp_fresh():
    return {'__name__': '__main__', '__builtins__': builtins}

${DESCRIBE_ERROR}
# Episodes sharing this interpreter each have a namespace id: their persisted globals and their context live here.
_wp_spaces = {}

def run_block(code, stubs, api_names, persist, host_call, space_id=None):
    global _wp_persistent
    api_ns = {'__name__': '_waypoint_api', '__builtins__': builtins, '_wp_host_call': host_call,
              '_wp_dumps': _wp_dumps, '_wp_loads': _wp_loads}
    exec(_wp_helpers, api_ns)
    exec(compile(stubs, '<waypoint-api>', 'exec'), api_ns)
    space = None
    if space_id is not None:
        space = _wp_spaces.get(space_id)
        if space is None:
            space = _wp_spaces[space_id] = {'globals': None, 'context': _wp_context0.copy()}
    if persist and space is not None:
        if space['globals'] is None:
            space['globals'] = _wp_fresh()
        ns = space['globals']
    elif persist:
        if _wp_persistent is None:
            _wp_persistent = _wp_fresh()
        ns = _wp_persistent
    else:
        ns = _wp_fresh()
    context = space['context'] if space is not None else _wp_context
    for name in api_names:
        ns[name] = api_ns[name]
    result = {'exitCode': 0}
    try:
        compiled = compile(code, '<code>', 'exec', dont_inherit=True)
        if context is None:
            exec(compiled, ns)
        else:
            context.run(exec, compiled, ns)
    except SystemExit as e:
        if e.code is not None and e.code != 0:
            result = {'exitCode': 1, 'error': {'type': 'SystemExit', 'message': str(e.code)}}
    except BaseException as e:
        result = {'exitCode': 1, 'error': _wp_describe(e)}
        if isinstance(e, MemoryError):
            result['recycle'] = True
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        sys.stdout, sys.stderr, sys.stdin = _wp_streams0
        if not persist:
            # Put back the original builtins (a block may have rebound print, open, __import__, ...).
            builtins.__dict__.clear()
            builtins.__dict__.update(_wp_builtins0)
            sys.settrace(None)
            sys.setprofile(None)
            sys.setrecursionlimit(_wp_recursion0)
            ns.clear()
    return _wp_dumps(result)

def reset_namespace(space_id=None):
    global _wp_persistent
    if space_id is not None:
        space = _wp_spaces.pop(space_id, None)
        if space is not None and space['globals'] is not None:
            space['globals'].clear()
        return
    if _wp_persistent is not None:
        _wp_persistent.clear()
    _wp_persistent = None
    for space in _wp_spaces.values():
        if space['globals'] is not None:
            space['globals'].clear()
    _wp_spaces.clear()
`;
