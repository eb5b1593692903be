/// Seed 000's field case, written by hand: a WebContent process killed 2–6 ms after its launch, before its view
/// attached, at background priority.
let seed000Schedule = """
    {"format": "supervisor-replay", "version": 1, "sources": ["seed 000, by hand"],
     "incidents": [{"id": "seed 000", "kind": "killed-before-render", "attachMs": [2, 6], "deathMs": [2, 6],
                    "band": "background", "rendered": false, "cause": "kill", "detail": "", "evidence": []}]}
    """
