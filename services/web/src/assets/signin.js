// A tablet's printed sign-in link (`ledgerctl tournament tables`) carries the table's token in
// the address's fragment, `#token=…`, which a browser never sends to a server, so no access log
// holds it. Here it is taken out of the address bar and the history at once, put in the sign-in
// form, and the form is posted as if typed: ledgerd sets its HttpOnly cookie and sends the
// tablet on to the page the link names.
(function () {
  'use strict';
  const found = /^#token=([^&]+)/.exec(window.location.hash);
  if (!found) {
    return;
  }
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  const field = document.getElementById('token');
  const form = field && field.form;
  if (!form) {
    return;
  }
  field.value = decodeURIComponent(found[1]);
  form.submit();
})();
