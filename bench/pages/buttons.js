// The driver's own floor (bench/navigation.py): a block of the s06 page reduced to the two
// buttons the reader clicks; Debug pauses it at once.
const root = document.querySelector("[data-loopstep-block]");
root.querySelector('[data-action="debug"]').addEventListener("click", () => {
  root.dataset.state = "paused";
});
document.dispatchEvent(new CustomEvent("loopstep:init"));
