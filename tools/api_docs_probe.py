"""The program tools.api_docs runs inside the sandbox: it imports what the lookups name, reads each
one's signature and docstring, and prints one JSON line (standard library only; never run in the
IDE's own process, since importing a module runs its code).

Input: argv[1] is a JSON list of lookups, each {"name": "DictWriter.__init__", "also":
["csv.DictWriter.__init__"], "missing": "", "keyword": "fieldname", "hints": ["csv"], "module_missing":
false}: `missing` an attribute the named object lacks, `keyword` a parameter its call was given,
`also` fuller names to try first, `hints` modules to look in. Output: a line starting with MARKER,
then a JSON list with one result per lookup.
"""

import sys

# The workspace (sys.path[0]) stays out of the probe's own imports: a project file named inspect.py
# must not replace the inspect module this program uses; it is put back for the lookups.
_FIRST = sys.path.pop(0) if sys.path else ""
import builtins  # noqa: E402
import difflib  # noqa: E402
import importlib  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import pkgutil  # noqa: E402

sys.path.insert(0, _FIRST)

MARKER = "LOCALCREW-API-DOCS:"
SUMMARY_CHARS = 400  # the first paragraph of a docstring, at most
SIGNATURE_CHARS = 240
CLOSE_NAMES = 5
# Where an unqualified method name ('split', 'sort') is looked for after the hinted modules.
BUILTIN_TYPES = (str, list, dict, set, tuple, bytes, int, float, frozenset, bytearray)
CLASSES_SCANNED = 300  # classes of the hinted modules searched for a method name


def _import_prefix(parts):
    """The module named by the longest importable prefix of `parts`, and how many parts it used."""
    for end in range(len(parts), 0, -1):
        try:
            return importlib.import_module(".".join(parts[:end])), end
        except Exception:  # noqa: BLE001, S112 - any import failure means: try a shorter prefix
            continue
    return None, 0


def _walk(obj, parts):
    for part in parts:
        obj = getattr(obj, part)
    return obj


def _hint_modules(hints):
    found = []
    for hint in hints:
        module, used = _import_prefix(hint.split("."))
        if module is not None and used == len(hint.split(".")):
            found.append(module)
    return [*found, builtins]


def _classes_of(modules):
    for module in modules:
        if module is builtins:
            continue
        for name, value in list(vars(module).items())[:CLASSES_SCANNED]:
            if inspect.isclass(value) and not name.startswith("_"):
                yield f"{module.__name__}.{name}", value


def resolve(name, hints):
    """(the name as found, the object), or (None, None): dotted from an import (or a class of the
    imported module: datetime.strptime), else from the hints, the built-in types and the hinted
    modules' classes."""
    parts = name.split(".")
    module, used = _import_prefix(parts)
    if module is not None:
        try:
            return name, _walk(module, parts[used:])
        except AttributeError:
            return _first_found(parts[used:], list(_classes_of([module])))
    modules = _hint_modules(hints)
    spaces = [(m.__name__, m) for m in modules] + [(t.__name__, t) for t in BUILTIN_TYPES]
    return _first_found(parts, [*spaces, *_classes_of(modules)])


def _first_found(parts, spaces):
    for prefix, space in spaces:
        try:
            found = _walk(space, parts)
        except AttributeError:
            continue
        rest = ".".join(parts)
        return (rest if space is builtins else f"{prefix}.{rest}"), found
    return None, None


def _doc_paragraphs(obj):
    doc = inspect.getdoc(obj) or ""
    return [" ".join(p.split()) for p in doc.split("\n\n") if p.strip()]


def _is_signature_line(text):
    # "S.startswith(prefix[, start[, end]]) -> bool", "sorted(iterable, /, *, key=None)": how C
    # functions without __text_signature__ document their arguments.
    head = text.split("(", 1)[0]
    return "(" in text and ")" in text and len(text) < 200 and head.replace(".", "").isidentifier()


def signature_of(obj):
    try:
        return str(inspect.signature(obj))[:SIGNATURE_CHARS]
    except (TypeError, ValueError):
        paragraphs = _doc_paragraphs(obj)
        first = paragraphs[0] if paragraphs else ""
        return first[first.index("(") :][:SIGNATURE_CHARS] if _is_signature_line(first) else ""


def summary_of(obj):
    paragraphs = _doc_paragraphs(obj)
    if len(paragraphs) > 1 and _is_signature_line(paragraphs[0]):
        paragraphs = paragraphs[1:]  # shown as the signature
    text = paragraphs[0] if paragraphs else ""
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def kind_of(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    return "function" if callable(obj) else "value"


def describe(name, obj):
    doc = {"name": name, "kind": kind_of(obj), "signature": "", "summary": summary_of(obj)}
    if callable(obj) and not inspect.ismodule(obj):
        doc["signature"] = signature_of(obj)
    return doc


def public_names(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def close(word, names):
    return difflib.get_close_matches(word, names, n=CLOSE_NAMES, cutoff=0.6)


def module_names():
    names = set(sys.builtin_module_names) | set(getattr(sys, "stdlib_module_names", ()))
    names |= {info.name for info in pkgutil.iter_modules()}
    return sorted(n for n in names if not n.startswith("_"))


def look_up(query):
    # A constructor's TypeError names Class.__init__: the class's own signature reads better.
    name = query["name"].removesuffix(".__init__")
    hints = query.get("hints", [])
    result = {"name": query["name"], "found": False, "docs": [], "close_names": []}
    if query.get("module_missing"):
        result["close_names"] = close(name.split(".")[-1], module_names())
        return _with_close_docs(result, hints)
    shown, obj = None, None
    for candidate in [*query.get("also", []), name]:  # fuller names from the traceback first
        shown, obj = resolve(candidate.removesuffix(".__init__"), hints)
        if obj is not None:
            break
    if obj is None:
        if "." in name and not query.get("missing"):  # csv.DictWriterr: the owner, and close names
            owner, missing = name.rsplit(".", 1)
            found = look_up({**query, "name": owner, "missing": missing, "also": []})
            return {**found, "name": query["name"], "missing": missing}
        return result
    result["found"] = True
    missing, keyword = query.get("missing", ""), query.get("keyword", "")
    if missing:  # the owner is named; what the coder meant is documented instead
        result["close_names"] = close(missing, public_names(obj))
        result["owner"] = shown
        return _with_close_docs(result, hints, owner=shown)
    result["docs"].append(describe(shown, obj))
    if keyword:
        result["close_names"] = close(keyword, list(_parameters(obj)))
    return result


def _parameters(obj):
    try:
        return inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return {}


def _with_close_docs(result, hints, owner=""):
    """The best close name's own documentation: what the coder most likely meant."""
    if result["close_names"]:
        best = f"{owner}.{result['close_names'][0]}" if owner else result["close_names"][0]
        shown, obj = resolve(best, hints)
        if obj is not None:
            result["docs"].append(describe(shown, obj))
    return result


def main():
    queries = json.loads(sys.argv[1])
    results = []
    for query in queries:
        try:
            results.append(look_up(query))
        except Exception as exc:  # noqa: BLE001 - an import that fails must not hide the other lookups
            results.append({"name": query.get("name", ""), "found": False, "docs": [], "close_names": [],
                            "error": f"{type(exc).__name__}: {exc}"[:200]})  # fmt: skip
    print(MARKER + json.dumps(results))


if __name__ == "__main__":
    main()
