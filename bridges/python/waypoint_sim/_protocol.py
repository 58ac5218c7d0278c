# DO NOT EDIT: generated from src/protocol/simulator.ts by scripts/gen-protocol.ts.
# Change the protocol there and run `node --import tsx scripts/gen-protocol.ts`.
"""Names, codes and parameter types of the Waypoint simulator protocol (JSON-RPC 2.0)."""

PROTOCOL_VERSION = 1

# Requests (client -> server)
METHOD_INITIALIZE = "initialize"
METHOD_RESET = "reset"
METHOD_OBSERVE = "observe"
METHOD_EXECUTE = "execute"
METHOD_ACT = "act"
METHOD_ACT_JOINTLY = "act_jointly"
METHOD_CHECK = "check"
METHOD_DRAIN_TRAJECTORY = "drain_trajectory"
METHOD_GEOMETRY = "geometry"
METHOD_SNAPSHOT = "snapshot"
METHOD_RESTORE = "restore"
METHOD_CLOSE = "close"
METHODS = ("initialize", "reset", "observe", "execute", "act", "act_jointly", "check", "drain_trajectory", "geometry", "snapshot", "restore", "close")
METHODS_NEEDING_EPISODE = ("observe", "execute", "act", "act_jointly", "check", "drain_trajectory", "geometry", "snapshot", "restore")

# Notifications (server -> client)
NOTIFICATION_TRAJECTORY = "trajectory"
NOTIFICATION_LOG = "log"
LOG_LEVELS = ("debug", "info", "warn", "error")

# Error codes
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNKNOWN_TASK = -32001
SNAPSHOT_UNSUPPORTED = -32002
SIMULATOR_CRASHED = -32003
NO_EPISODE = -32004
UNSUPPORTED = -32005

SNAPSHOT_MODES = ("none", "id", "blob")
API_PARAM_TYPES = ("float", "int", "str", "bool", "vec3", "list[float]", "poses", "any")

# Top-level params of each method: name -> (JSON type, required). "any" accepts every JSON value.
PARAMS = {
    "initialize": {"protocolVersion": ("integer", True), "client": ("object", True)},
    "reset": {"task": ("string", True), "seed": ("integer", True), "api": ("string", False), "agents": ("integer", False)},
    "observe": {"agent": ("string", False)},
    "execute": {"code": ("string", True), "language": ("string", True), "timeoutSecs": ("number", False)},
    "act": {"fn": ("string", True), "args": ("array", True)},
    "act_jointly": {"actions": ("array", True)},
    "check": {},
    "drain_trajectory": {},
    "geometry": {},
    "snapshot": {},
    "restore": {"kind": ("string", True), "id": ("string", False), "blob": ("any", False)},
    "close": {},
}
