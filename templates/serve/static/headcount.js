// Checks an answer without reloading the page: the form is sent as it would be without JavaScript, with
// fragment=1, and the server answers with the feedback box's HTML (escaped there), which KaTeX then typesets.
"use strict";

function typeset(element) {
  if (window.renderMathInElement) {
    window.renderMathInElement(element, {
      delimiters: [{ left: "$", right: "$", display: false }],
      throwOnError: false,
    });
  }
}

typeset(document.body);

for (const form of document.querySelectorAll("form.check")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = document.getElementById(form.dataset.feedback);
    const button = form.querySelector("button");
    const body = new URLSearchParams(new FormData(form));
    body.set("fragment", "1");
    button.disabled = true;
    box.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(form.getAttribute("action").split("#")[0], {
        method: "POST",
        body,
        headers: { Accept: "text/html" },
      });
      box.innerHTML = await response.text();
      typeset(box);
    } catch (error) {
      box.textContent = "The server could not be reached: check your connection and try again.";
    } finally {
      button.disabled = false;
      box.removeAttribute("aria-busy");
    }
  });
}
