"""A WebDriver client for chromedriver with Python's standard library only (W3C WebDriver over HTTP/JSON)."""
import base64, json, os, socket, subprocess, time, urllib.error, urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebDriverError(Exception):
    pass


class Chrome:
    """chromedriver and one headless Chromium session."""

    def __init__(self, log_dir, width=1400, height=1050):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(log_dir, "chromedriver.log"), "w")
        self.driver = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=self.log, stderr=subprocess.STDOUT)
        end = time.time() + 30
        while time.time() < end:
            try:
                self._call("GET", "/status")
                break
            except (OSError, WebDriverError):
                time.sleep(0.1)
        else:
            raise WebDriverError("chromedriver did not answer within 30 s")
        options = {"binary": "/usr/bin/chromium",
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                            "--user-data-dir=" + os.path.join(log_dir, "chromium-profile"),
                            f"--window-size={width},{height}", "--hide-scrollbars"]}
        value = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}})
        self.session = value["sessionId"]

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                answer = json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raise WebDriverError(f"{method} {path}: {e.code} {e.read()[:500]!r}")
        return answer.get("value")

    def _session(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url):
        self._session("POST", "/url", {"url": url})

    def js(self, script, *args):
        """Runs `script` (a function body; `return` gives the value) in the page."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def screenshot(self, path):
        png = base64.b64decode(self._session("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)
        return len(png)

    def browser_log(self):
        """The console messages since the last call (chromedriver's log endpoint): [{level, message}]."""
        return self._session("POST", "/se/log", {"type": "browser"}) or []

    def quit(self):
        try:
            self._session("DELETE", "")
        except (OSError, WebDriverError):
            pass
        self.driver.terminate()
        try:
            self.driver.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        self.log.close()
