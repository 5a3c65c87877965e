// Sorts a table.sortable by the clicked column: numbers by data-v, text otherwise.
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    th.addEventListener("click", function () {
      var dir = th.getAttribute("data-dir") === "asc" ? -1 : 1;
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("data-dir"); });
      th.setAttribute("data-dir", dir === 1 ? "asc" : "desc");
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var num = th.hasAttribute("data-num");
      rows.sort(function (a, b) {
        var x = a.cells[col], y = b.cells[col];
        if (num) return dir * (parseFloat(x.getAttribute("data-v")) - parseFloat(y.getAttribute("data-v")));
        return dir * x.textContent.localeCompare(y.textContent);
      });
      var frag = document.createDocumentFragment();
      rows.forEach(function (r) { frag.appendChild(r); });
      body.appendChild(frag);
    });
  });
});
