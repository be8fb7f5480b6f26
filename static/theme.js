// Applies the remembered light/dark choice before the page paints (loaded without `defer`);
// without a choice the stylesheet follows the system's preference.
"use strict";
document.documentElement.classList.add("js");
try {
  const theme = localStorage.getItem("ik-theme");
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
} catch (_) { /* storage disabled: follow the system */ }
