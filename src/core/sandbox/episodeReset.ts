// Putting a used interpreter back to its start-up state, so a warm worker can serve the next episode (warm pool,
// src/core/runs/warmPool.ts). EPISODE_RESET runs once in the harness's private dict after HARNESS: it records a
// baseline of everything a block can change from Python, and defines `reset_episode()`, which puts each category
// back and then checks it again. What it cannot put back is reported as unrestorable, and the sandbox then
// replaces the worker with a fresh one: a reset never leaves a worker that differs from the baseline in a way it
// knows about. The JavaScript side of the worker (globals reachable through Pyodide's `js` module) is handled by
// `snapshotJsGlobals` below.
//
// Covered: persisted globals; builtins; sys.modules (modules imported or replaced by a block); the bindings of
// every module loaded at start (a patched `json.dumps`, `__main__.x = 1`); the attributes of the classes those
// modules hold (`json.JSONEncoder.default = ...`); sys.path, meta_path, path_hooks, path_importer_cache, argv,
// warnoptions; warnings filters; logging's root logger and registered loggers; copyreg's pickle table;
// os.environ, the working directory and umask; recursion limit, trace and profile hooks, the int-to-str digit
// limit; gc state and callbacks; context variables (decimal's context among them) via a fresh Context per
// episode; the random module's stream (reseeded from the OS, as a fresh interpreter would be); files and folders
// in the in-memory file system (new ones are removed; a changed or removed start-up file is unrestorable).
// Detected and unrestorable: audit hooks (sys.addaudithook) and codec search functions (codecs.register).
// Not covered: state kept inside C extension modules beyond the above (e.g. locale.setlocale), attributes of
// functions and plain instances held by modules (a changed `__defaults__`). Generated code meets these rarely;
// the process boundary, not this reset, is the security boundary (docs/security.md).

/** Python, run once after HARNESS in the same dict. Defines `reset_episode() -> JSON {restored, unrestorable}`. */
export const EPISODE_RESET = String.raw`
import contextvars as _wp_cv, copyreg as _wp_copyreg, gc as _wp_gc, logging as _wp_logging, random as _wp_random
import warnings as _wp_warnings, codecs as _wp_codecs, _codecs as _wp__codecs
# Loaded at start-up already (importing them here changes no baseline).
from operator import getitem as _wp_getitem, is_ as _wp_is

_wp_IMMUTABLE_TYPE = 1 << 8
# Bindings that change by themselves as the runtime works (counters, caches rebound rather than mutated).
_wp_VOLATILE = {('warnings', '_filters_version'), ('_py_warnings', '_filters_version')}
_wp_SKIP_DIRS = ('/dev', '/proc', '/sys')
_wp_flags = {'audit_hook': False, 'codec': False}

def _wp_wrap(module, name, flag):
    original = getattr(module, name)
    def wrapper(*args, **kwargs):
        _wp_flags[flag] = True
        return original(*args, **kwargs)
    wrapper.__name__ = name
    wrapper.__doc__ = original.__doc__
    setattr(module, name, wrapper)

_wp_wrap(sys, 'addaudithook', 'audit_hook')
_wp_wrap(_wp_codecs, 'register', 'codec')
_wp_wrap(_wp__codecs, 'register', 'codec')

def _wp_fs_state():
    out = {}
    for root, dirs, files in os.walk('/'):
        if root.startswith(_wp_SKIP_DIRS):
            dirs[:] = []
            continue
        for d in dirs:
            p = os.path.join(root, d)
            if not p.startswith(_wp_SKIP_DIRS):
                out[p] = None
        for f in files:
            p = os.path.join(root, f)
            try:
                st = os.lstat(p)
                out[p] = (st.st_size, st.st_mtime_ns, st.st_mode)
            except OSError:
                out[p] = (-1, -1, -1)
    return out

def _wp_logging_state():
    root = _wp_logging.root
    return (list(root.handlers), root.level, list(root.filters), root.disabled, _wp_logging.root.manager.disable,
            dict(_wp_logging.Logger.manager.loggerDict))

def _wp_capture():
    mods = dict(sys.modules)
    moddicts = {}
    classes = {}
    for name, m in mods.items():
        d = getattr(m, '__dict__', None)
        if not isinstance(d, dict):
            continue
        moddicts[name] = (d, dict(d))
        for v in list(d.values()):
            if isinstance(v, type) and id(v) not in classes and not (v.__flags__ & _wp_IMMUTABLE_TYPE):
                classes[id(v)] = (v, dict(v.__dict__))
    umask = os.umask(0o022)
    os.umask(umask)
    return {
        'modules': mods,
        'moddicts': moddicts,
        'moddicts_unchanged': _wp_unchanged_check([(d, saved, name) for name, (d, saved) in moddicts.items()]),
        'classes': classes,
        # A class's __dict__ is a live read-only view of the class's own dict, so one taken now stays current.
        'classes_unchanged': _wp_unchanged_check([(cls.__dict__, saved, None) for cls, saved in classes.values()]),
        'path': list(sys.path), 'meta_path': list(sys.meta_path), 'path_hooks': list(sys.path_hooks),
        'importer_cache': dict(sys.path_importer_cache), 'argv': list(sys.argv), 'warnoptions': list(sys.warnoptions),
        'filters': list(_wp_warnings.filters),
        'logging': _wp_logging_state(),
        'dispatch': dict(_wp_copyreg.dispatch_table),
        'environ': dict(os.environ),
        'cwd': os.getcwd(),
        'umask': umask,
        'recursion': sys.getrecursionlimit(),
        'int_digits': sys.get_int_max_str_digits(),
        'gc': (_wp_gc.isenabled(), _wp_gc.get_threshold(), list(_wp_gc.callbacks)),
        'fs': _wp_fs_state(),
    }

def _wp_same_dict(current, saved, module=None):
    if len(current) != len(saved):
        return False
    for k, v in saved.items():
        if (module, k) in _wp_VOLATILE:
            continue
        if k not in current or current[k] is not v:
            return False
    return True

def _wp_unchanged_check(pairs):
    # Why: restore_shared runs after every block of a shared interpreter and checks ~900 module and class dicts;
    # _wp_same_dict called once per dict cost ~14 ms a block, most of a MALMM episode's sandbox CPU. This returns a
    # check that is True exactly when _wp_same_dict(current, saved, module) holds for every pair (same lengths,
    # every saved key but the volatile ones bound to the identical object), run as one pass in C (map/all; a key
    # that is gone raises KeyError). The per-dict loops then run only when something changed, so what they restore
    # and report is unchanged.
    currents = tuple(c for c, _, _ in pairs)
    lens = [len(saved) for _, saved, _ in pairs]
    owners, keys, vals = [], [], []
    for current, saved, module in pairs:
        for k, v in saved.items():
            if (module, k) in _wp_VOLATILE:
                continue
            owners.append(current)
            keys.append(k)
            vals.append(v)
    owners, keys, vals = tuple(owners), tuple(keys), tuple(vals)
    def unchanged():
        if list(map(len, currents)) != lens:
            return False
        try:
            return all(map(_wp_is, map(_wp_getitem, owners, keys), vals))
        except KeyError:
            return False
    return unchanged

def _wp_restore_list(target, saved):
    if len(target) != len(saved) or any(a is not b for a, b in zip(target, saved)):
        target[:] = saved
        return True
    return False

def _wp_restore(base, report):
    # Imports first: a module a block imported is dropped, a replaced one put back.
    added = [n for n in sys.modules if n not in base['modules']]
    for n in added:
        del sys.modules[n]
    replaced = [n for n, m in base['modules'].items() if sys.modules.get(n) is not m]
    for n in replaced:
        sys.modules[n] = base['modules'][n]
    if added:
        report.append(f"sys.modules: {len(added)} module(s) imported by the episode dropped ({', '.join(sorted(added)[:5])}{', ...' if len(added) > 5 else ''})")
    if replaced:
        report.append(f"sys.modules: {', '.join(sorted(replaced)[:5])} put back")
    # Module bindings (sys's own included: excepthook, displayhook, ...).
    changed = []
    modules_same = base['moddicts_unchanged']()
    for name, (d, saved) in ([] if modules_same else base['moddicts'].items()):
        if not _wp_same_dict(d, saved, name):
            keep = {k: d[k] for k in saved if (name, k) in _wp_VOLATILE and k in d}
            d.clear()
            d.update(saved)
            d.update(keep)
            changed.append(name)
    if changed:
        report.append(f"module attributes restored in {', '.join(sorted(changed)[:5])}{', ...' if len(changed) > 5 else ''}")
    patched = []
    classes_same = base['classes_unchanged']()
    for cls, saved in ([] if classes_same else base['classes'].values()):
        d = cls.__dict__
        if _wp_same_dict(d, saved):
            continue
        for k in [k for k in d if k not in saved]:
            try:
                delattr(cls, k)
            except (AttributeError, TypeError):
                pass
        for k, v in saved.items():
            if k not in d or d[k] is not v:
                try:
                    setattr(cls, k, v)
                except (AttributeError, TypeError):
                    pass
        patched.append(cls.__qualname__)
    if patched:
        report.append(f"class attributes restored on {', '.join(sorted(patched)[:5])}{', ...' if len(patched) > 5 else ''}")
    lists = [('sys.path', sys.path, base['path']), ('sys.meta_path', sys.meta_path, base['meta_path']),
             ('sys.path_hooks', sys.path_hooks, base['path_hooks']), ('sys.argv', sys.argv, base['argv']),
             ('sys.warnoptions', sys.warnoptions, base['warnoptions'])]
    for label, target, saved in lists:
        if _wp_restore_list(target, saved):
            report.append(f'{label} restored')
    if not _wp_same_dict(sys.path_importer_cache, base['importer_cache']):
        sys.path_importer_cache.clear()
        sys.path_importer_cache.update(base['importer_cache'])
    if _wp_restore_list(_wp_warnings.filters, base['filters']):
        if hasattr(_wp_warnings, '_filters_mutated'):
            _wp_warnings._filters_mutated()
        report.append('warnings filters restored')
    handlers, level, filters, disabled, disable, loggers = base['logging']
    if _wp_logging_state() != base['logging']:
        root = _wp_logging.root
        root.handlers[:] = handlers
        root.filters[:] = filters
        root.setLevel(level)
        root.disabled = disabled
        _wp_logging.disable(disable)
        ld = _wp_logging.Logger.manager.loggerDict
        ld.clear()
        ld.update(loggers)
        report.append('logging configuration restored')
    if not _wp_same_dict(_wp_copyreg.dispatch_table, base['dispatch']):
        _wp_copyreg.dispatch_table.clear()
        _wp_copyreg.dispatch_table.update(base['dispatch'])
        report.append('copyreg dispatch table restored')
    if dict(os.environ) != base['environ']:
        os.environ.clear()
        os.environ.update(base['environ'])
        report.append('os.environ restored')
    if os.getcwd() != base['cwd']:
        os.chdir(base['cwd'])
        report.append('working directory restored')
    if os.umask(base['umask']) != base['umask']:
        report.append('umask restored')
    if sys.getrecursionlimit() != base['recursion']:
        sys.setrecursionlimit(base['recursion'])
        report.append('recursion limit restored')
    if sys.get_int_max_str_digits() != base['int_digits']:
        sys.set_int_max_str_digits(base['int_digits'])
        report.append('int max str digits restored')
    if sys.gettrace() is not None or sys.getprofile() is not None:
        sys.settrace(None)
        sys.setprofile(None)
        report.append('trace/profile hook removed')
    enabled, threshold, callbacks = base['gc']
    if (_wp_gc.isenabled(), _wp_gc.get_threshold()) != (enabled, threshold) or _wp_restore_list(_wp_gc.callbacks, callbacks):
        (_wp_gc.enable if enabled else _wp_gc.disable)()
        _wp_gc.set_threshold(*threshold)
        report.append('gc settings restored')
    # Files: what the episode created goes; a changed start-up file cannot be put back.
    now = _wp_fs_state()
    created = sorted(p for p in now if p not in base['fs'])
    for p in sorted(created, key=len, reverse=True):
        try:
            if now[p] is None:
                os.rmdir(p)
            else:
                os.unlink(p)
        except OSError as e:
            report.append(f'could not remove {p}: {e}')
    if created:
        report.append(f"{len(created)} file(s)/folder(s) created by the episode removed ({', '.join(created[:3])}{', ...' if len(created) > 3 else ''})")
    # Whether every module and class binding was found as at start-up (nothing above rebinds one then).
    return modules_same and classes_same

def _wp_differences(base, bindings_same=False):
    out = []
    if set(sys.modules) != set(base['modules']) or any(sys.modules[n] is not m for n, m in base['modules'].items()):
        out.append('sys.modules')
    # Why bindings_same: the restore just found every binding as at start-up and changed none, so checking them all
    # again (half of a block's restore time) could only find what a finalizer did in between, which it can as well
    # just after this check.
    if not bindings_same:
        if not base['moddicts_unchanged']():
            out += [f'module {n}' for n, (d, saved) in base['moddicts'].items() if not _wp_same_dict(d, saved, n)]
        if not base['classes_unchanged']():
            out += [f'class {c.__qualname__}' for c, saved in base['classes'].values() if not _wp_same_dict(c.__dict__, saved)]
    if not _wp_same_dict(builtins.__dict__, _wp_builtins0):
        out.append('builtins')
    fs = _wp_fs_state()
    out += [f'file {p} changed or removed' for p, st in base['fs'].items() if fs.get(p, 'gone') != st]
    out += [f'file {p} left' for p in fs if p not in base['fs']]
    if dict(os.environ) != base['environ']:
        out.append('os.environ')
    if os.getcwd() != base['cwd']:
        out.append('working directory')
    if _wp_flags['audit_hook']:
        out.append('an audit hook was added (sys.addaudithook cannot be undone)')
    if _wp_flags['codec']:
        out.append('a codec search function was registered (codecs.register cannot be undone)')
    return out

def _wp_restore_shared(report):
    if not _wp_same_dict(builtins.__dict__, _wp_builtins0):
        builtins.__dict__.clear()
        builtins.__dict__.update(_wp_builtins0)
        report.append('builtins restored')
    sys.stdout, sys.stderr, sys.stdin = _wp_streams0
    try:
        bindings_same = _wp_restore(_wp_base, report)
    except BaseException as e:
        return [f'reset failed: {type(e).__name__}: {e}']
    return _wp_differences(_wp_base, bindings_same)

def reset_episode():
    global _wp_context
    report = []
    reset_namespace()
    unrestorable = _wp_restore_shared(report)
    # A fresh interpreter seeds random from the OS; so does a reset one (never the last episode's stream).
    _wp_random.seed()
    _wp_context = _wp_context0.copy()
    return _wp_dumps({'restored': report, 'unrestorable': unrestorable})

# With several episodes in one interpreter (namespaces), everything but the namespaces is put back after every
# block: an episode's only state between its blocks is its own namespace (and its own context).
def restore_shared():
    report = []
    unrestorable = _wp_restore_shared(report)
    return _wp_dumps({'restored': report, 'unrestorable': unrestorable})

_wp_context0 = _wp_cv.copy_context()
_wp_context = _wp_context0.copy()
_wp_base = _wp_capture()
`;

type Bag = Record<PropertyKey, unknown>;
interface Saved {
  owner: object;
  label: string;
  props: Map<PropertyKey, PropertyDescriptor>;
}

/**
 * The worker's JavaScript globals as Python can reach them (`import js`): globalThis's own properties, and one level
 * down (each global object's own properties, and its prototype's for constructors, so `js.Object.prototype.x = 1`
 * is seen). `restore()` deletes what was added, puts back what was changed, and says what it could not.
 */
export function snapshotJsGlobals(): { restore(): { restored: string[]; unrestorable: string[] } } {
  const saved: Saved[] = [];
  const seen = new Set<object>();
  const take = (owner: object, label: string) => {
    if (seen.has(owner)) return;
    seen.add(owner);
    const props = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(owner)) {
      const d = Reflect.getOwnPropertyDescriptor(owner, key);
      if (d) props.set(key, d);
    }
    saved.push({ owner, label, props });
  };
  take(globalThis, 'globalThis');
  for (const [key, d] of [...saved[0]!.props]) {
    const v = d.value as unknown;
    if ((typeof v === 'object' && v !== null) || typeof v === 'function') {
      take(v as object, `globalThis.${String(key)}`);
      const proto = (v as Bag).prototype;
      if (typeof v === 'function' && typeof proto === 'object' && proto !== null) take(proto, `globalThis.${String(key)}.prototype`);
    }
  }
  const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor) =>
    Object.is(a.value, b.value) && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;
  return {
    restore() {
      const restored: string[] = [];
      const unrestorable: string[] = [];
      for (const { owner, label, props } of saved) {
        for (const key of Reflect.ownKeys(owner)) {
          if (props.has(key)) continue;
          if (Reflect.deleteProperty(owner, key)) restored.push(`${label}.${String(key)} removed`);
          else unrestorable.push(`${label}.${String(key)} was added and cannot be deleted`);
        }
        for (const [key, d] of props) {
          const now = Reflect.getOwnPropertyDescriptor(owner, key);
          if (now && sameDescriptor(now, d)) continue;
          if (Reflect.defineProperty(owner, key, d)) restored.push(`${label}.${String(key)} restored`);
          else unrestorable.push(`${label}.${String(key)} was changed and cannot be put back`);
        }
      }
      return { restored, unrestorable };
    },
  };
}
