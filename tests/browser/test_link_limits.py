"""A link whose custom setup inflates far past the setup's size limit (a small fragment,
a deflate bomb) is refused with a clear error while it is inflated: the page stays usable."""
from __future__ import annotations

import base64
import zlib

from playwright.sync_api import expect

from page_helpers import BOOT_TIMEOUT, block, lesson_url, press, wait_ready


def deflate_bomb(megabytes: int) -> str:
    """`megabytes` MB of zeros, deflate-raw and base64url: about 1/1000 of that."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(1 << 20)
    data = b"".join(deflate.compress(zeros) for _ in range(megabytes)) + deflate.flush()
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def test_a_link_whose_setup_inflates_to_200_mb_shows_an_error_and_loses_nothing(
        page, server_url, site_kind):
    custom = deflate_bomb(200)
    assert len(custom) < 400_000
    page.goto(lesson_url(server_url, site_kind,
                         hash=f"#b=run_subagent&s=custom&custom={custom}"))
    b = block(page, "run_subagent")
    error = b.locator('[data-role="setup-error"]')
    expect(error).to_be_visible(timeout=BOOT_TIMEOUT)
    expect(error).to_contain_text("100000")
    expect(b).to_have_attribute("data-scenario", "normal")
    expect(b.locator('select[data-role="scenario"] option[value="custom"]')).to_have_count(0)
    wait_ready(b)
    press(b, "debug")   # no breakpoint: Debug pauses at the first line
    expect(b).to_have_attribute("data-state", "paused", timeout=BOOT_TIMEOUT)
    press(b, "continue")
    expect(b).to_have_attribute("data-state", "finished", timeout=BOOT_TIMEOUT)
    expect(b.locator('[data-role="output"]')).to_have_text("完成： answered\n")
