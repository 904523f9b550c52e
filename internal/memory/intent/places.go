package intent

import "strings"

// gazetteer is the allow-list of real places context may name: countries, the larger cities of the
// world, the towns and cities of the UK and Ireland, and the states of the US. "I moved to Leeds."
// reads as news; "I moved to Hogwarts.", "I live in Gotham." name no place on it and wait.
var gazetteer = placesOf(`
	afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas
	bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia botswana brazil brunei
	bulgaria burundi cambodia cameroon canada chad chile china colombia congo croatia cuba cyprus czechia
	denmark djibouti dominica ecuador egypt eritrea estonia eswatini ethiopia fiji finland france gabon
	gambia georgia germany ghana greece grenada guatemala guinea guyana haiti honduras hungary iceland india
	indonesia iran iraq ireland israel italy jamaica japan jordan kazakhstan kenya kiribati kosovo kuwait
	kyrgyzstan laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar malawi
	malaysia maldives mali malta mauritania mauritius mexico moldova monaco mongolia montenegro morocco
	mozambique myanmar namibia nauru nepal netherlands holland nicaragua niger nigeria norway oman pakistan
	palau palestine panama paraguay peru philippines poland portugal qatar romania russia rwanda samoa
	senegal serbia seychelles singapore slovakia slovenia somalia spain sudan suriname sweden switzerland
	syria taiwan tajikistan tanzania thailand togo tonga tunisia turkey turkmenistan tuvalu uganda ukraine
	uruguay uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe england scotland wales uk usa america
	new_zealand south_africa south_korea north_korea costa_rica el_salvador sri_lanka saudi_arabia
	united_states united_kingdom czech_republic dominican_republic puerto_rico northern_ireland hong_kong
	alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho illinois
	indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi
	missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont
	virginia washington wisconsin wyoming new_hampshire new_jersey new_mexico new_york north_carolina
	north_dakota south_carolina south_dakota rhode_island west_virginia
	london birmingham manchester leeds liverpool sheffield bristol newcastle nottingham leicester coventry
	bradford hull stoke wolverhampton derby southampton portsmouth plymouth brighton reading oxford cambridge
	york bath exeter norwich ipswich colchester chelmsford luton milton_keynes northampton peterborough
	lincoln gloucester cheltenham worcester hereford shrewsbury chester lancaster preston blackpool bolton
	wigan warrington stockport salford sunderland durham middlesbrough darlington harrogate huddersfield
	wakefield doncaster rotherham barnsley swindon slough watford guildford canterbury maidstone dover
	bournemouth poole salisbury winchester truro taunton carlisle kendal scarborough st_albans
	glasgow edinburgh aberdeen dundee inverness stirling perth paisley cardiff swansea newport wrexham
	bangor belfast derry dublin cork galway limerick waterford kilkenny
	paris lyon marseille toulouse nice nantes bordeaux lille strasbourg montpellier berlin hamburg munich
	cologne frankfurt stuttgart dusseldorf düsseldorf leipzig dresden hanover bremen nuremberg madrid
	barcelona valencia seville sevilla malaga málaga bilbao zaragoza granada lisbon porto rome milan naples
	turin florence venice bologna genoa palermo amsterdam rotterdam utrecht eindhoven the_hague brussels
	antwerp ghent bruges vienna salzburg zurich geneva basel bern lausanne copenhagen aarhus stockholm
	gothenburg malmö malmo oslo bergen helsinki reykjavik warsaw krakow kraków gdansk wroclaw prague brno
	budapest bratislava ljubljana zagreb belgrade sarajevo sofia bucharest athens thessaloniki istanbul
	ankara izmir tallinn riga vilnius kyiv kiev lviv odesa minsk moscow valletta nicosia luxembourg_city
	new_york_city nyc los_angeles san_francisco san_diego san_jose seattle portland chicago boston
	philadelphia pittsburgh baltimore houston dallas austin san_antonio denver phoenix atlanta miami orlando
	tampa nashville memphis detroit cleveland columbus cincinnati indianapolis milwaukee minneapolis
	st_louis kansas_city new_orleans las_vegas salt_lake_city sacramento oakland brooklyn queens
	manhattan the_bronx raleigh charlotte richmond buffalo albany honolulu anchorage boise tucson
	albuquerque omaha louisville toronto montreal vancouver calgary ottawa edmonton winnipeg quebec halifax
	victoria mexico_city guadalajara monterrey cancun havana bogota bogotá medellin lima quito santiago
	buenos_aires montevideo asuncion caracas rio rio_de_janeiro sao_paulo são_paulo brasilia
	tokyo osaka kyoto yokohama nagoya sapporo fukuoka kobe hiroshima seoul busan beijing shanghai shenzhen
	guangzhou chengdu wuhan taipei bangkok hanoi ho_chi_minh_city manila jakarta bali kuala_lumpur
	mumbai delhi new_delhi bangalore bengaluru chennai kolkata hyderabad pune ahmedabad karachi lahore
	islamabad dhaka kathmandu colombo dubai abu_dhabi doha riyadh jeddah tel_aviv jerusalem beirut amman
	tehran baghdad cairo alexandria casablanca marrakech tunis algiers lagos abuja accra nairobi
	addis_ababa kampala kigali dar_es_salaam johannesburg cape_town durban pretoria sydney melbourne
	brisbane perth adelaide canberra hobart darwin gold_coast auckland wellington christchurch
`)

// placesOf reads a list of places, the words of each joined by "_".
func placesOf(list string) []phrase {
	var out []phrase
	for _, p := range strings.Fields(list) {
		out = append(out, strings.Split(p, "_"))
	}
	return out
}

// inGazetteer returns the length of the place the gazetteer names at index i of s, or 0.
func (s *sentence) inGazetteer(i int) int {
	return matchAt(s.words, i, gazetteer)
}
