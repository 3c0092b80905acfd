"""Options shared by the whole suite."""


def pytest_addoption(parser):
    parser.addoption("--site", choices=("server", "export"), default="server",
                     help="run the browser tests against the server (default) or a static export")
