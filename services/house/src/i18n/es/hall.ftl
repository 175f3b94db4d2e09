# Una sala sin internet (ledgerd --tls-local-ca): la hoja con la que una tableta confía en el
# certificado raíz propio de la sala. Español; cada mensaje tiene su gemelo inglés en
# en/hall.ftl. Los menús, como los muestran iPadOS y Android en español.

hall-trust-title = Confiar en el registro de esta sala desde una tableta
hall-trust-intro = Esta sala no tiene internet, así que el registro firma su propio certificado. Cada tableta confía en él una sola vez: escanea el código con la tableta, instala el certificado y activa la confianza. Hasta entonces la tableta rechaza las páginas del registro y la mesa no puede funcionar sin red.
hall-trust-qr-label = Descarga del certificado de la sala
hall-trust-fingerprint-title = Comprueba antes de confiar
hall-trust-fingerprint-intro = La tableta muestra la huella SHA-256 del certificado. Debe ser exactamente esta; si es otra, no lo instales y avisa a la organización.
hall-trust-root-name = El certificado se llama
hall-trust-ipad = iPad
hall-trust-ipad-1 = Escanea el código con la Cámara y abre el enlace en Safari. Permite la descarga: «Perfil descargado».
hall-trust-ipad-2 = Ajustes → General → VPN y gestión de dispositivos → «{ $root }» → Instalar (comprueba la huella en Más detalles).
hall-trust-ipad-3 = Ajustes → General → Información → Ajustes de confianza de certificados → activa la confianza total para «{ $root }».
hall-trust-ipad-4 = Sin este último paso Safari sigue rechazando las páginas.
hall-trust-android = Tableta Android
hall-trust-android-1 = Escanea el código y descarga el archivo: queda en Descargas.
hall-trust-android-2 = Ajustes → Seguridad → Cifrado y credenciales → Instalar un certificado → Certificado de CA → Instalar de todos modos, y elige el archivo descargado. (Algunos fabricantes llaman a los menús de forma algo distinta: busca «certificado de CA» en los ajustes.)
hall-trust-android-3 = Comprueba la huella en Credenciales de confianza → Usuario → «{ $root }».
hall-trust-then = Después abre { $pages } en la tableta: la barra de direcciones muestra un candado y ningún aviso.
hall-trust-limited = Este certificado solo responde de esta sala: las direcciones de una red privada y { $names }. Una tableta que lo instala no confía por él en ningún otro sitio.
hall-trust-limited-addresses = Este certificado solo responde de esta sala: las direcciones de una red privada. Una tableta que lo instala no confía por él en ningún otro sitio.
hall-trust-unlimited = Este certificado lo hizo un registro antiguo y no se limita a esta sala: podría responder de cualquier sitio. Pide a la organización uno nuevo antes de instalarlo.
hall-trust-after = Al acabar el torneo, quita el certificado (iPad: VPN y gestión de dispositivos → Eliminar perfil; Android: Credenciales de confianza → Usuario). Su clave nunca sale del ordenador del registro.
hall-trust-none = Este registro no tiene un certificado propio que instalar: sus páginas usan un certificado en el que toda tableta ya confía.
