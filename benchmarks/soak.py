"""canon serve under a team's day, with sign-in on: editors checking, comparing and auditing
for a while, one worker killed and the server restarted once on the way.

Ten editors (``--editors``), each signed in with a session of their own, for ten minutes
(``--minutes``): each in turn checks a draft against the index (half the time), compares two
texts (a third) or starts a site audit of a local site (the rest), with a pause of 0.5–2 s
between, as a person works.  A third of the way in, one of the server's worker processes is
killed (SIGKILL); two thirds of the way in, the server is stopped (SIGTERM) and started again
on the same port, folders and secret, so that sessions carry over.  Everything stays on
127.0.0.1: the server is ``canon serve`` in a process of its own, the site an HTTP server
in a thread of its own here.

Afterwards, it checks that nothing was lost: every answer to the same draft gave the same
uniqueness, no request got a 500, every audit is done or marked interrupted (none left
"running"), and the index verifies.  It prints each kind of request's count, outcomes and
p50/p95 latency (the requests refused while the server restarts are counted apart).

    python -m benchmarks.soak                 # 10 editors, 10 minutes
    python -m benchmarks.soak --minutes 2     # a shorter run
    python -m benchmarks.soak --quick         # 4 editors, 1 minute: does it run
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from ._common import CANON_BIN, REPO, argument_parser, quantile, table

PASSWORD = "a soak test password"
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Log:
    """Every request: (kind, outcome, seconds); answers by draft; audits started."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: list[tuple[str, str, float]] = field(default_factory=list)
    answers: defaultdict[int, set[float]] = field(default_factory=lambda: defaultdict(set))
    audits: list[str] = field(default_factory=list)

    def add(self, kind: str, outcome: str, seconds: float) -> None:
        with self.lock:
            self.requests.append((kind, outcome, seconds))


class Server:
    """``canon serve`` in a process of its own, started again on demand."""

    def __init__(self, folder: Path, db: Path, users: Path, port: int) -> None:
        self.args = [str(CANON_BIN), "serve", "--index", str(db), "--users", str(users),
                     "--audits", str(folder / "audits"), "--port", str(port), "--workers", "2",
                     "--audits-at-once", "2", "--allow-private", "--deadline", "60"]  # fmt: skip
        self.url = f"http://127.0.0.1:{port}"
        self.log = (folder / "server.log").open("ab")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.args, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("canon serve did not start: see server.log")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def kill_a_worker(self) -> int | None:
        """SIGKILL one of the server's worker processes; its pid."""
        import psutil

        assert self.process is not None
        children = psutil.Process(self.process.pid).children(recursive=True)
        if not children:
            return None
        victim = max(children, key=lambda c: c.cpu_times().user)
        victim.kill()
        return int(victim.pid)


def _texts() -> list[str]:
    words = (REPO / "examples" / "original.txt").read_text("utf-8").split()
    rewrite = (REPO / "examples" / "rewrite.txt").read_text("utf-8").split()
    drafts = [" ".join(words[n : n + 120]) for n in range(0, max(1, len(words) - 120), 40)]
    return drafts + [" ".join(rewrite[n : n + 120]) for n in range(0, len(rewrite), 60)]


class Editor(threading.Thread):
    """One person: signs in, then checks, compares and audits until the time is up."""

    def __init__(self, number: int, server: Server, site: str, log: Log, until: float) -> None:
        super().__init__(daemon=True)
        self.name = f"editor{number:02d}"
        self.server, self.site, self.log, self.until = server, site, log, until
        self.random = random.Random(number)
        self.texts = _texts()
        self.client = httpx.Client(base_url=server.url, timeout=90, follow_redirects=True)
        self.token = ""

    def _sign_in(self) -> None:
        page = self.client.get("/signin")
        self.token = _TOKEN.search(page.text).group(1)  # type: ignore[union-attr]
        form = {"name": self.name, "password": PASSWORD, "csrf_token": self.token, "next": "/"}
        answer = self.client.post("/signin", data=form)
        if answer.status_code != 200:  # the compare page, after the 303
            raise RuntimeError(f"{self.name} could not sign in: {answer.status_code}")

    def _request(self, kind: str) -> httpx.Response:
        if kind == "check":
            draft = self.random.randrange(len(self.texts))
            answer = self.client.post("/api/check", json={"draft": self.texts[draft]})
            if answer.status_code == 200:
                with self.log.lock:
                    self.log.answers[draft].add(answer.json()["profiles"][0]["uniqueness"])
            return answer
        if kind == "compare":
            first, second = self.random.sample(self.texts, 2)
            return self.client.post("/api/compare", json={"first": first, "second": second})
        answer = self.client.post(
            "/audit",
            data={"start": self.site + "/p/0", "max_pages": "20", "csrf_token": self.token},
        )
        if answer.status_code == 200 and "/audit/" in str(answer.url):
            with self.log.lock:
                self.log.audits.append(str(answer.url).rsplit("/", 1)[1].split("?")[0])
        return answer

    def run(self) -> None:
        while time.monotonic() < self.until:
            kind = self.random.choices(["check", "compare", "audit"], [50, 35, 15])[0]
            started = time.perf_counter()
            try:
                if not self.token:
                    self._sign_in()
                answer = self._request(kind)
                outcome = str(answer.status_code)
                if "/signin" in str(answer.url):
                    outcome = "signed out"
                    self.token = ""
            except (httpx.TransportError, RuntimeError, AttributeError):
                outcome = "down"  # the server is restarting
                self.token = ""
                time.sleep(0.5)
            self.log.add(kind, outcome, time.perf_counter() - started)
            time.sleep(self.random.uniform(0.5, 2.0))


SITE_PAGES = 40
_PARAGRAPH = (
    "Чай заваривают водой, которая едва закипела, и настаивают от двух до пяти минут, смотря "
    "по сорту. Страница {n} рассказывает о сорте номер {n} и о том, где его выращивают."
)


class _SitePage(BaseHTTPRequestHandler):
    """A page of the site: a paragraph of its own and links to the next pages."""

    def do_GET(self) -> None:
        number = int(self.path.rsplit("/", 1)[-1]) if self.path.startswith("/p/") else -1
        if not 0 <= number < SITE_PAGES:
            self.send_error(404)
            return
        links = "".join(f'<a href="/p/{(number + step) % SITE_PAGES}">далее</a> ' for step in
                        (1, 2, 3))  # fmt: skip
        body = (f"<html><head><title>Сорт {number}</title></head><body><article><h1>Сорт "
                f"{number}</h1><p>{_PARAGRAPH.format(n=number)}</p></article><nav>{links}</nav>"
                "</body></html>").encode()  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _site() -> Iterator[str]:
    """The site on a free port of 127.0.0.1, served by threads of this process."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SitePage)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _prepare(folder: Path, editors: int) -> tuple[Path, Path]:
    import canon
    from canon.web.accounts import Accounts

    db = folder / "corpus.db"
    with canon.Index(db, create=True) as index:
        rules = canon.IndexRules([canon.get_profile("raw"), canon.get_profile("lemma")], k=4)
        canon.add_sources(index, [str(REPO / "examples" / "original.txt")], rules)
    users = folder / "team.users"
    accounts = Accounts(users, create=True)
    for number in range(editors):
        accounts.add(f"editor{number:02d}", PASSWORD)
    return db, users


def _audit_states(folder: Path, audits: list[str]) -> Counter[str]:
    from canon.web.audits import resumable, status_of

    states: Counter[str] = Counter()
    for audit_id in audits:
        status = status_of(folder / "audits" / audit_id)
        states["interrupted" if resumable(status) else status["state"]] += 1
    return states


def _report(log: Log, seconds: float, events: list[str]) -> list[str]:
    rows = []
    for kind in ("check", "compare", "audit"):
        made = [(o, s) for k, o, s in log.requests if k == kind]
        answered = [s for o, s in made if o not in ("down",)]
        outcomes = Counter(o for o, _ in made)
        rows.append([
            kind, str(len(made)), ", ".join(f"{o}: {n}" for o, n in sorted(outcomes.items())),
            f"{quantile(answered, 0.5) * 1000:.0f}", f"{quantile(answered, 0.95) * 1000:.0f}",
            f"{max(answered) * 1000:.0f}",
        ])  # fmt: skip
    lines = [f"{seconds / 60:.1f} minutes; " + "; ".join(events), ""]
    lines.append(table(["request", "count", "outcomes", "p50 ms", "p95 ms", "max ms"], rows))
    return lines


def _chaos(server: Server, started: float, seconds: float) -> list[str]:
    """A worker killed a third of the way in, the server restarted two thirds in."""
    time.sleep(seconds / 3)
    victim = server.kill_a_worker()
    events = [f"worker {victim} killed at {time.monotonic() - started:.0f} s"]
    time.sleep(max(0.0, started + 2 * seconds / 3 - time.monotonic()))
    down = time.monotonic()
    server.stop()
    server.start()
    return [*events, f"restarted at {down - started:.0f} s, down {time.monotonic() - down:.1f} s"]


def _lost(folder: Path, db: Path, log: Log) -> tuple[list[str], str]:
    """What was lost, and a line of what was checked."""
    lost = []
    if any(len(found) > 1 for found in log.answers.values()):
        lost.append("a draft got two different answers")
    if any(o.startswith("5") and o != "503" for _, o, _ in log.requests):
        lost.append("a request got a 5xx other than 503")
    states = _audit_states(folder, log.audits)
    if states.get("running"):
        lost.append("an audit was left running")
    verified = subprocess.run([str(CANON_BIN), "index", "verify", str(db)],
                              capture_output=True, text=True)  # fmt: skip
    if verified.returncode != 0:
        lost.append("the index does not verify: " + verified.stdout + verified.stderr)
    checked = (f"audits: {dict(states)}; drafts answered: {len(log.answers)}, each always "
               f"alike: {all(len(v) == 1 for v in log.answers.values())}; index verified: "
               f"{verified.returncode == 0}")  # fmt: skip
    return lost, checked


def main(argv: Sequence[str] | None = None) -> None:
    parser = argument_parser(__name__, __doc__)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--editors", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="4 editors for 1 minute")
    args = parser.parse_args(argv)
    if args.quick:
        args.minutes, args.editors = 1.0, 4
    seconds = args.minutes * 60
    with tempfile.TemporaryDirectory(prefix="canon-soak-") as name:
        folder = Path(name)
        db, users = _prepare(folder, args.editors)
        with _site() as site:
            server = Server(folder, db, users, _free_port())
            server.start()
            log, started = Log(), time.monotonic()
            editors = [Editor(n, server, site, log, started + seconds) for n in range(args.editors)]
            for editor in editors:
                editor.start()
            events = _chaos(server, started, seconds)
            for editor in editors:
                editor.join(seconds + 120)
            server.stop()
        lost, checked = _lost(folder, db, log)
        print("\n".join(_report(log, seconds, events)))
        print(f"\n{checked}")
        print("nothing lost" if not lost else "LOST: " + "; ".join(lost))
        if lost:  # what the server said of its errors: each different last line once
            said = (folder / "server.log").read_text("utf-8", "replace").splitlines()
            ends = [said[n - 1] for n, line in enumerate(said) if line.startswith("INFO") and
                    n and not said[n - 1].startswith(("INFO", " "))]  # fmt: skip
            print("\n".join(dict.fromkeys(ends)))


if __name__ == "__main__":
    main()
