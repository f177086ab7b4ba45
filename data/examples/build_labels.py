"""Build the bundled ``acme-helpdesk`` golden suite and its claim labels.

This script is the single source of truth for the suite: documents, cases, the answers of
two systems (``baseline``: mostly faithful; ``candidate``: carries deliberately inserted
hallucinations) and the expected claims of every answer. Claims are written here as
substrings of their answer; the script locates each one, computes its character span and
fails loudly if a substring is missing or occurs more than once.

Run from anywhere; it regenerates every file of ``data/examples/acme-helpdesk/``
byte-for-byte identically::

    python data/examples/build_labels.py

Labelling conventions (see README.md in the suite folder):

* A claim is one verifiable statement: a sentence, or a clause when a sentence carries
  several facts. Abstentions ("The leaflet does not say ...") and pure procedure ("Ask your
  pharmacist.") are not claims.
* FABRICATION is usually UNSUPPORTED (invented, absent from the sources); DISTORTION is
  CONTRADICTED when the source states otherwise and PARTIALLY_SUPPORTED when it is only an
  imprecision; OMISSION_AS_FACT (a hedge dropped) is UNSUPPORTED, or PARTIALLY_SUPPORTED when
  the difference is small; CITATION_ERROR (a fact pinned on the wrong document) is
  CONTRADICTED when the named document says otherwise. OUT_OF_SCOPE claims carry no type
  and severity LOW.
* Severity: CRITICAL = a contradicted or fabricated claim that could make a reader act
  against their safety or their legal rights and obligations (doses, contraindications,
  notice periods, deadlines); HIGH = a fabricated or falsified number, name, date or
  statistic; MEDIUM = a distortion that changes the meaning; LOW = minor imprecision or an
  out-of-scope remark.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

SUITE_DIR = Path(__file__).resolve().parent / "acme-helpdesk"
SYSTEMS = ("baseline", "candidate")

VERDICTS = ("SUPPORTED", "PARTIALLY_SUPPORTED", "UNSUPPORTED", "CONTRADICTED", "OUT_OF_SCOPE")
TYPES = ("FABRICATION", "DISTORTION", "OMISSION_AS_FACT", "CITATION_ERROR")
SEVERITIES = ("LOW", "MEDIUM", "HIGH", "CRITICAL")
TAGS = ("lookup", "multi-hop", "conflicting-sources", "ambiguous", "should-abstain", "numeric")
MIN_CASES_PER_TAG = 4


class BuildError(Exception):
    """The suite data is inconsistent; the message says where."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class ClaimLabel:
    """An expected claim, written as a substring of its answer."""

    text: str
    verdict: str = "SUPPORTED"
    hallucination_type: str | None = None
    severity: str | None = None
    why: str = ""  # for readers of this script only; not written to labels.jsonl


@dataclass(frozen=True)
class Answer:
    """One system's answer and its expected claims."""

    text: str
    claims: tuple[ClaimLabel, ...] = ()


@dataclass(frozen=True)
class Case:
    """A golden question with both systems' answers."""

    case_id: str
    domain: str
    question: str
    doc_ids: tuple[str, ...]
    reference_answer: str
    tags: tuple[str, ...]
    baseline: Answer
    candidate: Answer


def ok(text: str) -> ClaimLabel:
    """A claim the sources support."""
    return ClaimLabel(text)


def bad(text: str, verdict: str, htype: str | None, severity: str, why: str) -> ClaimLabel:
    """A claim the sources do not (fully) support, with its type, severity and reason."""
    return ClaimLabel(text, verdict, htype, severity, why)


def ans(text: str, *claims: ClaimLabel) -> Answer:
    """An answer with its expected claims (none for a pure abstention)."""
    return Answer(text, claims)


RISK_BY_DOMAIN = {
    "medication": "CRITICAL",
    "legal": "HIGH",
    "product": "MEDIUM",
    "travel": "MEDIUM",
}

# --------------------------------------------------------------------------- documents

DOCUMENTS: list[dict[str, str]] = [
    # ---------------------------------------------------------------- medication
    {
        "doc_id": "med-leaflet-2024",
        "title": "Zelparin 50 mg film-coated tablets - Package leaflet: information for the "
        "patient (revised March 2024)",
        "text": (
            "Zelparin 50 mg film-coated tablets contain 50 mg of zelparin (as zelparin "
            "tosilate) and are made by Halvern Pharma Ltd, Dublin, Ireland. "
            "Zelparin is an anticoagulant: it makes the blood less likely to form clots. "
            "It is used in adults to prevent blood clots in the veins after hip or knee "
            "replacement surgery and to reduce the risk of stroke in adults with non-valvular "
            "atrial fibrillation. "
            "The usual dose is one 50 mg tablet twice a day, taken about 12 hours apart, with "
            "or without food. "
            "Do not take more than 100 mg (two tablets) in 24 hours. "
            "If you have moderate kidney problems (creatinine clearance 30 to 49 mL/min), your "
            "doctor will lower the dose to one 50 mg tablet once a day. "
            "After hip replacement surgery treatment usually lasts 35 days; after knee "
            "replacement surgery it usually lasts 14 days. "
            "If you forget a dose, take it as soon as you remember on the same day, but if less "
            "than 6 hours remain before your next dose, skip the missed tablet; never take a "
            "double dose to make up for a forgotten one. "
            "Do not take Zelparin if you are allergic to zelparin, if you are actively "
            "bleeding, if you have severe liver disease, if your creatinine clearance is below "
            "30 mL/min, or if you have a mechanical heart valve. "
            "Do not take Zelparin if you are pregnant. "
            "Women who could become pregnant must use effective contraception during treatment "
            "and for 7 days after the last dose. "
            "It is not known whether zelparin passes into breast milk, so you should not "
            "breast-feed while taking it. "
            "Ketoconazole, itraconazole and ritonavir can strongly increase the amount of "
            "zelparin in the blood, and Zelparin should not be used together with them. "
            "Painkillers such as aspirin, ibuprofen and naproxen increase the risk of bleeding "
            "when taken with Zelparin. "
            "Rifampicin and St John's wort may reduce how well Zelparin works. "
            "Clarithromycin may raise zelparin levels in some patients, and your doctor may "
            "decide to monitor you more closely. "
            "Common side effects (may affect up to 1 in 10 people) are bruising, nosebleeds, "
            "nausea and anaemia. "
            "Uncommon side effects (may affect up to 1 in 100 people) include blood in the "
            "urine, bleeding from the stomach or bowel and raised liver enzymes. "
            "Bleeding in the brain is rare (may affect up to 1 in 1,000 people). "
            "Dizziness may occur in some patients, especially during the first week of "
            "treatment. "
            "Hair loss has been reported, but how often it happens is not known. "
            "If you take more Zelparin than you should, contact your doctor or the nearest "
            "hospital emergency department immediately and take the pack with you. "
            "Taking too much Zelparin increases the risk of bleeding. "
            "Activated charcoal may reduce absorption if it is given within 2 hours of the "
            "overdose. "
            "In life-threatening bleeding, hospitals can give the specific reversal agent "
            "revazumab (brand name Revarsa). "
            "Stop taking Zelparin at least 48 hours before planned surgery with a high risk of "
            "bleeding, and at least 24 hours before procedures with a low risk of bleeding. "
            "Store below 30 °C in the original package; the shelf life is 36 months."
        ),
    },
    {
        "doc_id": "med-leaflet-2021",
        "title": "Zelparin 50 mg film-coated tablets - Package leaflet: information for the "
        "patient (revised June 2021)",
        "text": (
            "Zelparin 50 mg film-coated tablets contain 50 mg of zelparin (as zelparin "
            "tosilate). "
            "Zelparin is used in adults to prevent blood clots in the veins after hip or knee "
            "replacement surgery. "
            "The usual dose is one 50 mg tablet twice a day, with or without food. "
            "If your doctor decides that you need a higher dose, you may take up to 150 mg "
            "(three tablets) in 24 hours. "
            "After hip replacement surgery treatment usually lasts 28 days; after knee "
            "replacement surgery it usually lasts 10 days. "
            "Do not take Zelparin if you are allergic to zelparin, if you are actively "
            "bleeding, if you have severe liver disease or if your creatinine clearance is "
            "below 25 mL/min. "
            "Zelparin should not be used during pregnancy unless your doctor considers it "
            "essential. "
            "You should not breast-feed while taking Zelparin. "
            "Ketoconazole and ritonavir can increase the amount of zelparin in the blood. "
            "Aspirin and other anti-inflammatory painkillers increase the risk of bleeding. "
            "Common side effects (may affect up to 1 in 10 people) are bruising, nosebleeds "
            "and nausea. "
            "If you take more Zelparin than you should, contact your doctor immediately. "
            "There is no specific antidote to Zelparin. "
            "Stop taking Zelparin at least 24 hours before planned surgery. "
            "Store below 25 °C; the shelf life is 24 months."
        ),
    },
    {
        "doc_id": "med-dhcp-2023",
        "title": "Direct Healthcare Professional Communication: Zelparin maximum daily dose "
        "(Halvern Pharma, 12 September 2023)",
        "text": (
            "Halvern Pharma Ltd, in agreement with the Irish medicines regulator, informs "
            "healthcare professionals of a change to the maximum daily dose of Zelparin "
            "(zelparin tosilate). "
            "The maximum daily dose is reduced from 150 mg to 100 mg with immediate effect, and "
            "the option to increase the dose above 50 mg twice daily has been removed. "
            "The change follows the ZEPHYR-2 study, which followed 4,812 patients for a median "
            "of 18 months. "
            "Major bleeding occurred in 2.1% of patients per year who received 150 mg a day, "
            "compared with 1.2% per year in patients who received 100 mg a day. "
            "The rate of stroke or systemic embolism was similar in both groups (1.4% and 1.5% "
            "per year respectively). "
            "Patients currently taking 150 mg a day should be switched to 50 mg twice daily at "
            "their next review, and no later than 31 December 2023. "
            "In patients aged 80 years or older, 50 mg once daily is thought to offer similar "
            "protection with less bleeding, but this has not been confirmed and is being "
            "studied further. "
            "The product information, including the patient leaflet, will be updated to "
            "reflect these changes. "
            "Suspected adverse reactions should be reported to the national reporting system "
            "or to Halvern Pharma on +353 1 555 0142."
        ),
    },
    # ---------------------------------------------------------------- legal
    {
        "doc_id": "legal-tenancy-2025",
        "title": "Harbourview Lettings - Assured Shorthold Tenancy Terms and Conditions "
        "(version 4, effective 1 February 2025)",
        "text": (
            "These terms apply to every tenancy agreement signed with Harbourview Lettings "
            "Ltd, acting as agent for the landlord, on or after 1 February 2025. "
            "The tenancy is for a fixed term of 12 months unless the agreement states "
            "otherwise. "
            "Rent is payable monthly in advance on the 1st day of each month by standing "
            "order. "
            "The tenant pays a holding deposit equal to one week's rent, which is refunded "
            "within 7 days if the landlord decides not to proceed. "
            "The security deposit is equal to five weeks' rent and is protected with the "
            "Tenancy Deposit Scheme (TDS) within 30 days of receipt; the prescribed "
            "information is given to the tenant within the same 30 days. "
            "If rent is more than 14 days late, the landlord may charge interest at 3% above "
            "the Bank of England base rate, calculated from the day the rent was due. "
            "Either party may end the tenancy early by using the break clause, which can be "
            "exercised after the sixth month of the tenancy by giving at least two months' "
            "written notice. "
            "After the fixed term ends, the tenant may end the tenancy by giving at least one "
            "month's written notice, ending on the last day of a rental period. "
            "The landlord must give at least two months' written notice to end the tenancy. "
            "If the tenant asks to leave before the break clause can be used and the landlord "
            "agrees, the tenant pays the landlord's reasonable costs of re-letting, capped at "
            "£250. "
            "Lost keys, fobs or access cards are replaced at the tenant's cost, capped at £75 "
            "per set. "
            "Pets may be kept only with the landlord's written consent, which will not be "
            "unreasonably refused. "
            "Where a pet is allowed, the landlord may ask for additional rent of up to £25 per "
            "month. "
            "The tenant must report any disrepair promptly; emergency repairs, such as a gas "
            "leak or total loss of heating or water, are attended within 24 hours, and routine "
            "repairs within 14 days. "
            "The landlord or agent may inspect the property with at least 24 hours' written "
            "notice, no more than once every three months. "
            "The tenant must not sublet or take in lodgers without the landlord's written "
            "consent. "
            "Smoking is not permitted anywhere inside the property."
        ),
    },
    {
        "doc_id": "legal-tenancy-2022",
        "title": "Harbourview Lettings - Assured Shorthold Tenancy Terms and Conditions "
        "(version 3, effective 1 April 2022)",
        "text": (
            "These terms apply to tenancy agreements signed with Harbourview Lettings Ltd "
            "between 1 April 2022 and 31 January 2025. "
            "The tenancy is for a fixed term of 12 months. "
            "Rent is payable monthly in advance. "
            "The security deposit is equal to five weeks' rent and is protected with the "
            "Deposit Protection Service (DPS) within 30 days of receipt. "
            "If rent is more than 7 days late, the landlord may charge interest at 4% above "
            "the Bank of England base rate. "
            "Either party may use the break clause after the fourth month of the tenancy by "
            "giving at least one month's written notice. "
            "After the fixed term ends, the tenant may end the tenancy by giving at least one "
            "month's written notice. "
            "Lost keys are replaced at the tenant's cost, up to £100 per set. "
            "No pets are allowed in the property. "
            "The landlord or agent may inspect the property with at least 24 hours' written "
            "notice. "
            "Routine repairs are carried out within 28 days of being reported."
        ),
    },
    {
        "doc_id": "legal-deposit-guide",
        "title": "Harbourview Lettings - Guide to deposits and end-of-tenancy disputes "
        "(January 2025)",
        "text": (
            "At the end of the tenancy, Harbourview Lettings carries out a check-out "
            "inspection within 5 working days of the tenant returning the keys. "
            "The check-out report is compared with the check-in inventory signed at the start "
            "of the tenancy. "
            "Deductions can only be made for damage beyond fair wear and tear, unpaid rent, "
            "unpaid bills that are the tenant's responsibility, missing items, and cleaning "
            "needed to return the property to the standard recorded at check-in. "
            "We will send the tenant a list of any proposed deductions within 10 working days "
            "of the check-out inspection. "
            "The deposit, minus any agreed deductions, is returned within 10 days of both "
            "parties agreeing the amount. "
            "If the tenant does not agree, either side can refer the dispute to the free "
            "adjudication service of the Tenancy Deposit Scheme (TDS). "
            "A dispute must be raised with TDS within 3 months of the end of the tenancy. "
            "The adjudicator usually issues a decision within 28 days of receiving all the "
            "evidence, and the decision is binding on both parties. "
            "The disputed amount stays protected by TDS until the dispute is resolved. "
            "Professional cleaning may be charged only if the property was professionally "
            "cleaned before the tenancy started and is returned in a worse condition. "
            "Tenants who wish to challenge a decision on procedural grounds may be able to "
            "ask TDS for a review within 21 days of the decision. "
            "In our experience most disputes are about cleaning, which is thought to account "
            "for around half of all referrals."
        ),
    },
    # ---------------------------------------------------------------- product
    {
        "doc_id": "prod-api-v3",
        "title": "NimbusQ Message Queue - API Reference v3.2 (released 14 January 2025)",
        "text": (
            "NimbusQ is a managed message queue service operated by Corvane Systems. "
            "This reference describes version 3.2 of the REST API, available at "
            "https://api.nimbusq.io/v3. "
            "Every request must carry an API key in the X-NimbusQ-Key header; Corvane "
            "recommends rotating keys every 90 days. "
            "The maximum message size is 256 KB, including attributes. "
            "A single SendMessageBatch call can carry up to 10 messages, and the total batch "
            "size must not exceed 256 KB. "
            "Standard queues accept up to 3,000 requests per second per queue; on the Free "
            "plan the limit is 300 requests per second. "
            "FIFO queues process up to 300 messages per second without batching, or up to "
            "3,000 messages per second with batching. "
            "Messages are retained for 4 days by default; retention can be configured from 1 "
            "minute to 14 days. "
            "The default visibility timeout is 30 seconds and the maximum is 12 hours. "
            "Long polling waits up to 20 seconds for a message to arrive. "
            "Error 400 InvalidMessage means the message body or attributes are malformed. "
            "Error 413 PayloadTooLarge is returned when a message or batch exceeds 256 KB. "
            "Error 429 RateLimited is returned when the request rate is exceeded; the response "
            "includes a Retry-After header giving the number of seconds to wait. "
            "Error 503 QueueUnavailable is returned during a failover and usually clears "
            "within a few seconds, although in rare cases it may last up to 2 minutes. "
            "The official Python SDK, nimbusq 3.2.0, requires Python 3.9 or later. "
            "The v2 API is deprecated and will be switched off on 30 June 2025."
        ),
    },
    {
        "doc_id": "prod-api-v2",
        "title": "NimbusQ Message Queue - API Reference v2.4 (released 3 May 2023)",
        "text": (
            "This reference describes version 2.4 of the NimbusQ REST API, available at "
            "https://api.nimbusq.io/v2. "
            "Every request must carry an API key in the X-NimbusQ-Key header. "
            "The maximum message size is 64 KB. "
            "A single SendMessageBatch call can carry up to 10 messages. "
            "Standard queues accept up to 1,000 requests per second per queue. "
            "Messages are retained for 4 days by default; retention can be configured from 1 "
            "minute to 7 days. "
            "The default visibility timeout is 30 seconds and the maximum is 12 hours. "
            "Error 413 PayloadTooLarge is returned when a message exceeds 64 KB. "
            "Error 429 RateLimited is returned when the request rate is exceeded; clients "
            "should retry with exponential backoff starting at 1 second. "
            "The Python SDK, nimbusq 2.4.1, requires Python 3.7 or later."
        ),
    },
    {
        "doc_id": "prod-pricing",
        "title": "NimbusQ Pricing and Service Level Agreement (effective 1 March 2025)",
        "text": (
            "Every account receives the first 1 million requests each month free of charge. "
            "After the free allowance, standard queue requests cost $0.40 per million and "
            "FIFO queue requests cost $0.50 per million. "
            "Each 64 KB chunk of a request payload is billed as one request, so a 256 KB "
            "message counts as four requests. "
            "Data transferred out of NimbusQ to the internet costs $0.09 per GB; transfer "
            "between queues in the same region is free. "
            "The Standard plan has a monthly uptime commitment of 99.9%, and the Enterprise "
            "plan, which starts at $1,500 per month, commits to 99.95%. "
            "If monthly uptime falls below the commitment, customers receive a service credit "
            "of 10% of the monthly bill; if it falls below 99.0%, the credit is 25%. "
            "Service credits must be requested within 30 days of the end of the affected "
            "month. "
            "Prices are quoted for the us-east region; prices in other regions may differ, "
            "and eu-central is expected to be up to 10% higher. "
            "Enterprise customers get a named technical account manager and a 1-hour response "
            "time for severity 1 incidents."
        ),
    },
    # ---------------------------------------------------------------- travel
    {
        "doc_id": "travel-policy-2025",
        "title": "Wayfarer Travel Insurance - Policy wording, Silver and Gold single-trip "
        "plans (policies issued from 1 January 2025)",
        "text": (
            "This policy wording applies to Wayfarer Silver and Gold single-trip policies "
            "issued on or after 1 January 2025 and is underwritten by Ardent Mutual Insurance "
            "plc. "
            "Cover is available to travellers aged up to 79 at the start date of the policy. "
            "The maximum trip length is 31 days on Silver and 45 days on Gold. "
            "Emergency medical expenses are covered up to £2 million on Silver and £10 million "
            "on Gold. "
            "Cancellation and curtailment are covered up to £1,500 per person on Silver and "
            "£5,000 per person on Gold. "
            "An excess of £100 per person per claim applies on Silver and £50 on Gold. "
            "Baggage is covered up to £1,000 on Silver, with a single-item limit of £250, and "
            "up to £2,500 on Gold, with a single-item limit of £500. "
            "Travel delay benefit is paid on Gold only: £20 for every full 12 hours of delay, "
            "up to £200. "
            "Winter sports are included on Gold and can be added to Silver for an additional "
            "premium of £35. "
            "Scuba diving is covered to a depth of 18 metres on Silver and 30 metres on Gold, "
            "provided you dive with a qualified instructor or hold a recognised "
            "qualification. "
            "You must declare all pre-existing medical conditions; if you do not, a claim "
            "related to an undeclared condition may be declined. "
            "Claims must be submitted within 31 days of your return home. "
            "For lost or stolen items, we may require a police report obtained within 24 "
            "hours of discovering the loss. "
            "You may cancel the policy within 14 days of purchase and receive a full refund, "
            "provided you have not travelled or made a claim."
        ),
    },
    {
        "doc_id": "travel-policy-2023",
        "title": "Wayfarer Travel Insurance - Policy wording, Silver and Gold single-trip "
        "plans (policies issued 1 March 2023 to 31 December 2024)",
        "text": (
            "This policy wording applies to Wayfarer Silver and Gold single-trip policies "
            "issued between 1 March 2023 and 31 December 2024. "
            "Cover is available to travellers aged up to 74 at the start date of the policy. "
            "The maximum trip length is 31 days on both plans. "
            "Emergency medical expenses are covered up to £1 million on Silver and £5 million "
            "on Gold. "
            "Cancellation is covered up to £1,000 per person on Silver and £3,000 per person "
            "on Gold. "
            "An excess of £150 per person per claim applies on both plans. "
            "Baggage is covered up to £750 on Silver and £1,500 on Gold, with a single-item "
            "limit of £200 on both plans. "
            "Winter sports are not covered on either plan. "
            "Claims must be submitted within 28 days of your return home. "
            "You may cancel the policy within 14 days of purchase and receive a full refund."
        ),
    },
    {
        "doc_id": "travel-claims-faq",
        "title": "Wayfarer Travel Insurance - Claims and emergency assistance FAQ (updated "
        "February 2025)",
        "text": (
            "Our 24-hour emergency assistance line is +44 20 7946 0321 and is staffed by "
            "Ardent Assistance. "
            "You must call the assistance line before receiving any medical treatment "
            "expected to cost more than £500, unless it is an emergency. "
            "Most claims are settled within 10 working days of us receiving all the documents "
            "we need. "
            "Some claims may take longer, for example if we need a medical report from a "
            "doctor abroad. "
            "Claims can be made online at wayfarer-insure.co.uk/claims or by post to Wayfarer "
            "Claims, PO Box 2291, Leeds LS1 9QA. "
            "Cancellation because of a strike is covered only if you bought the policy before "
            "the strike was announced. "
            "For travel delay claims you need written confirmation from the airline or "
            "operator of the length of the delay and its reason. "
            "If your baggage is delayed for more than 12 hours on the outbound journey, Gold "
            "policyholders can claim up to £150 for essential purchases; Silver policies do "
            "not include this benefit. "
            "Payments are made by bank transfer in pounds sterling. "
            "Expenses paid in another currency are usually converted at the exchange rate on "
            "the date the expense was incurred."
        ),
    },
]

# --------------------------------------------------------------------------- cases
# Shorthand for the verdict/type pairs used below.
C, U, P, OOS = "CONTRADICTED", "UNSUPPORTED", "PARTIALLY_SUPPORTED", "OUT_OF_SCOPE"
FAB, DIS, OMI, CIT = "FABRICATION", "DISTORTION", "OMISSION_AS_FACT", "CITATION_ERROR"

MEDICATION = [
    Case(
        "med-001",
        "medication",
        "What is the usual dose of Zelparin 50 mg tablets?",
        ("med-leaflet-2024",),
        "One 50 mg tablet twice a day, about 12 hours apart, with or without food.",
        ("lookup", "numeric"),
        baseline=ans(
            "The usual dose is one 50 mg tablet twice a day, taken about 12 hours apart. "
            "It can be taken with or without food.",
            ok("The usual dose is one 50 mg tablet twice a day, taken about 12 hours apart."),
            ok("It can be taken with or without food."),
        ),
        candidate=ans(
            "Take one 50 mg tablet two times daily, roughly 12 hours apart, with or without "
            "a meal.",
            ok("Take one 50 mg tablet two times daily, roughly 12 hours apart"),
            ok("with or without a meal"),
        ),
    ),
    Case(
        "med-002",
        "medication",
        "What is the maximum daily dose of Zelparin?",
        ("med-leaflet-2024",),
        "No more than 100 mg (two 50 mg tablets) in 24 hours.",
        ("lookup", "numeric"),
        baseline=ans(
            "You should not take more than 100 mg, which is two tablets, in 24 hours.",
            ok("You should not take more than 100 mg, which is two tablets, in 24 hours."),
        ),
        candidate=ans(
            "The maximum daily dose is 200 mg, which is four tablets in 24 hours.",
            bad(
                "The maximum daily dose is 200 mg, which is four tablets in 24 hours.",
                C,
                DIS,
                "CRITICAL",
                "maximum doubled: the leaflet says 100 mg (two tablets)",
            ),
        ),
    ),
    Case(
        "med-003",
        "medication",
        "Can I take Zelparin while I am pregnant?",
        ("med-leaflet-2024",),
        "No. Zelparin must not be taken during pregnancy, and women who could become pregnant "
        "must use effective contraception during treatment and for 7 days after the last dose.",
        ("lookup",),
        baseline=ans(
            "No, Zelparin must not be taken if you are pregnant. Women who could become "
            "pregnant must use effective contraception during treatment and for 7 days after "
            "the last dose.",
            ok("No, Zelparin must not be taken if you are pregnant."),
            ok(
                "Women who could become pregnant must use effective contraception during "
                "treatment and for 7 days after the last dose."
            ),
        ),
        candidate=ans(
            "Zelparin is considered safe in pregnancy when taken at the usual dose. Women who "
            "could become pregnant should still use contraception during treatment and for 7 "
            "days after the last dose.",
            bad(
                "Zelparin is considered safe in pregnancy when taken at the usual dose.",
                C,
                DIS,
                "CRITICAL",
                "the leaflet says do not take Zelparin if pregnant",
            ),
            ok(
                "Women who could become pregnant should still use contraception during "
                "treatment and for 7 days after the last dose."
            ),
        ),
    ),
    Case(
        "med-004",
        "medication",
        "The 2021 and 2024 leaflets seem to say different things about pregnancy. What does "
        "each say, and which applies now?",
        ("med-leaflet-2024", "med-leaflet-2021"),
        "The March 2024 leaflet is the current one and says not to take Zelparin if you are "
        "pregnant. The June 2021 leaflet said it should not be used during pregnancy unless "
        "the doctor considered it essential.",
        ("conflicting-sources", "multi-hop"),
        baseline=ans(
            "The March 2024 leaflet, which is the current one, says you must not take Zelparin "
            "if you are pregnant. The June 2021 leaflet said it should not be used during "
            "pregnancy unless your doctor considered it essential.",
            ok(
                "The March 2024 leaflet, which is the current one, says you must not take "
                "Zelparin if you are pregnant."
            ),
            ok(
                "The June 2021 leaflet said it should not be used during pregnancy unless your "
                "doctor considered it essential."
            ),
        ),
        candidate=ans(
            "According to the June 2021 leaflet, Zelparin must never be taken during "
            "pregnancy. The March 2024 leaflet relaxed this and allows use in pregnancy if "
            "the doctor considers it essential.",
            bad(
                "According to the June 2021 leaflet, Zelparin must never be taken during "
                "pregnancy.",
                C,
                CIT,
                "MEDIUM",
                "the strict rule is in the 2024 leaflet; the 2021 one allowed essential use",
            ),
            bad(
                "The March 2024 leaflet relaxed this and allows use in pregnancy if the doctor "
                "considers it essential.",
                C,
                CIT,
                "CRITICAL",
                "the 2021 exception is pinned on the current leaflet, which forbids use",
            ),
        ),
    ),
    Case(
        "med-005",
        "medication",
        "How much Zelparin can be taken in 24 hours at most? My older leaflet says 150 mg.",
        ("med-leaflet-2024", "med-leaflet-2021", "med-dhcp-2023"),
        "At most 100 mg in 24 hours. The June 2021 leaflet allowed up to 150 mg, but the "
        "maximum was reduced from 150 mg to 100 mg in September 2023 and the March 2024 "
        "leaflet says 100 mg.",
        ("conflicting-sources", "numeric", "multi-hop"),
        baseline=ans(
            "The current maximum is 100 mg in 24 hours. The June 2021 leaflet allowed up to "
            "150 mg, but Halvern Pharma reduced the maximum daily dose from 150 mg to 100 mg "
            "in September 2023.",
            ok("The current maximum is 100 mg in 24 hours."),
            ok("The June 2021 leaflet allowed up to 150 mg"),
            ok(
                "Halvern Pharma reduced the maximum daily dose from 150 mg to 100 mg in "
                "September 2023"
            ),
        ),
        candidate=ans(
            "Your older leaflet is still valid, so you may take up to 150 mg in 24 hours if "
            "your doctor advises it. The 2023 safety letter only recommended a lower dose for "
            "patients over 80.",
            bad(
                "Your older leaflet is still valid, so you may take up to 150 mg in 24 hours if "
                "your doctor advises it.",
                C,
                DIS,
                "CRITICAL",
                "the 150 mg option was removed in 2023; the maximum is 100 mg",
            ),
            bad(
                "The 2023 safety letter only recommended a lower dose for patients over 80.",
                C,
                DIS,
                "MEDIUM",
                "the letter lowered the maximum for everyone; the over-80 point is tentative",
            ),
        ),
    ),
    Case(
        "med-006",
        "medication",
        "What are the common side effects of Zelparin?",
        ("med-leaflet-2024",),
        "Bruising, nosebleeds, nausea and anaemia (may affect up to 1 in 10 people). "
        "Dizziness may occur in some patients, especially in the first week.",
        ("lookup",),
        baseline=ans(
            "Common side effects, which may affect up to 1 in 10 people, are bruising, "
            "nosebleeds, nausea and anaemia. Dizziness may also occur in some patients, "
            "especially in the first week of treatment.",
            ok(
                "Common side effects, which may affect up to 1 in 10 people, are bruising, "
                "nosebleeds, nausea and anaemia."
            ),
            ok(
                "Dizziness may also occur in some patients, especially in the first week of "
                "treatment."
            ),
        ),
        candidate=ans(
            "Zelparin causes dizziness during the first week of treatment. Other common side "
            "effects, affecting up to 1 in 10 people, are bruising, nosebleeds, nausea and "
            "anaemia.",
            bad(
                "Zelparin causes dizziness during the first week of treatment.",
                U,
                OMI,
                "MEDIUM",
                "the leaflet says dizziness may occur in some patients",
            ),
            ok(
                "Other common side effects, affecting up to 1 in 10 people, are bruising, "
                "nosebleeds, nausea and anaemia."
            ),
        ),
    ),
    Case(
        "med-007",
        "medication",
        "Does Zelparin cause hair loss?",
        ("med-leaflet-2024",),
        "Hair loss has been reported, but the leaflet says how often it happens is not known.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "Hair loss has been reported with Zelparin, but how often it happens is not known.",
            ok("Hair loss has been reported with Zelparin, but how often it happens is not known."),
        ),
        candidate=ans(
            "Hair loss is a common side effect of Zelparin, affecting up to 1 in 10 people.",
            bad(
                "Hair loss is a common side effect of Zelparin, affecting up to 1 in 10 people.",
                U,
                FAB,
                "HIGH",
                "invented frequency: the leaflet says it is not known",
            ),
        ),
    ),
    Case(
        "med-008",
        "medication",
        "Why was the maximum daily dose of Zelparin lowered, and what did the study show?",
        ("med-dhcp-2023",),
        "After the ZEPHYR-2 study (4,812 patients, median 18 months): major bleeding 2.1% per "
        "year at 150 mg a day versus 1.2% at 100 mg a day, with similar stroke or systemic "
        "embolism rates (1.4% and 1.5% per year). The maximum went from 150 mg to 100 mg.",
        ("multi-hop", "numeric"),
        baseline=ans(
            "The maximum was lowered from 150 mg to 100 mg after the ZEPHYR-2 study of 4,812 "
            "patients. Major bleeding occurred in 2.1% of patients per year on 150 mg a day, "
            "compared with 1.2% per year on 100 mg a day. Stroke or systemic embolism rates "
            "were the same in both groups.",
            ok(
                "The maximum was lowered from 150 mg to 100 mg after the ZEPHYR-2 study of "
                "4,812 patients."
            ),
            ok(
                "Major bleeding occurred in 2.1% of patients per year on 150 mg a day, compared "
                "with 1.2% per year on 100 mg a day."
            ),
            bad(
                "Stroke or systemic embolism rates were the same in both groups.",
                P,
                DIS,
                "LOW",
                "the letter says similar (1.4% and 1.5%), not the same",
            ),
        ),
        candidate=ans(
            "The daily cap fell from 150 mg to 100 mg because the ZEPHYR-2 trial of 4,812 "
            "patients found more major bleeding at 150 mg a day (2.1% versus 1.2% per year), "
            "while stroke rates were similar.",
            ok("The daily cap fell from 150 mg to 100 mg"),
            ok(
                "because the ZEPHYR-2 trial of 4,812 patients found more major bleeding at "
                "150 mg a day (2.1% versus 1.2% per year)"
            ),
            ok("while stroke rates were similar"),
        ),
    ),
    Case(
        "med-009",
        "medication",
        "I'm 84. Should I take 50 mg once a day instead of twice?",
        ("med-dhcp-2023", "med-leaflet-2024"),
        "The documents do not settle this. The 2023 letter says 50 mg once daily is thought to "
        "offer similar protection with less bleeding in patients aged 80 or older, but this "
        "has not been confirmed; the leaflet's once-daily dose is for moderate kidney "
        "problems. The doctor should decide.",
        ("ambiguous", "numeric"),
        baseline=ans(
            "The 2023 letter says that in patients aged 80 or older, 50 mg once daily is "
            "thought to offer similar protection with less bleeding, but this has not been "
            "confirmed. The leaflet lowers the dose to 50 mg once daily only for moderate "
            "kidney problems (creatinine clearance 30 to 49 mL/min). Please discuss this with "
            "your doctor.",
            ok(
                "The 2023 letter says that in patients aged 80 or older, 50 mg once daily is "
                "thought to offer similar protection with less bleeding, but this has not been "
                "confirmed."
            ),
            ok(
                "The leaflet lowers the dose to 50 mg once daily only for moderate kidney "
                "problems (creatinine clearance 30 to 49 mL/min)."
            ),
        ),
        candidate=ans(
            "Yes. Patients aged 80 or older should take 50 mg once daily, which gives the same "
            "protection with less bleeding.",
            bad(
                "Patients aged 80 or older should take 50 mg once daily",
                U,
                OMI,
                "CRITICAL",
                "an unconfirmed hypothesis turned into a dosing instruction",
            ),
            bad(
                "which gives the same protection with less bleeding",
                U,
                OMI,
                "MEDIUM",
                "the letter says this is thought to be so, not confirmed",
            ),
        ),
    ),
    Case(
        "med-010",
        "medication",
        "Can I drink alcohol while taking Zelparin?",
        ("med-leaflet-2024",),
        "The leaflet does not say anything about alcohol.",
        ("should-abstain",),
        baseline=ans(
            "The leaflet does not mention alcohol, so it does not say whether drinking is safe "
            "with Zelparin. Ask your doctor or pharmacist.",
        ),
        candidate=ans(
            "Moderate drinking is fine, but do not exceed 14 units of alcohol a week while "
            "taking Zelparin because alcohol increases the risk of bleeding.",
            bad(
                "Moderate drinking is fine",
                U,
                FAB,
                "CRITICAL",
                "invented safety advice; the leaflet is silent on alcohol",
            ),
            bad(
                "do not exceed 14 units of alcohol a week while taking Zelparin because alcohol "
                "increases the risk of bleeding",
                U,
                FAB,
                "HIGH",
                "invented limit and mechanism",
            ),
        ),
    ),
    Case(
        "med-011",
        "medication",
        "Is it OK to take clarithromycin with Zelparin?",
        ("med-leaflet-2024",),
        "The leaflet does not forbid it: clarithromycin may raise zelparin levels in some "
        "patients and the doctor may decide to monitor more closely. Ketoconazole, "
        "itraconazole and ritonavir are the ones that should not be combined.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "Clarithromycin may raise zelparin levels in some patients, and your doctor may "
            "decide to monitor you more closely. Ketoconazole, itraconazole and ritonavir "
            "should not be used with Zelparin, but the leaflet does not tell you to avoid "
            "clarithromycin.",
            ok("Clarithromycin may raise zelparin levels in some patients"),
            ok("your doctor may decide to monitor you more closely"),
            ok("Ketoconazole, itraconazole and ritonavir should not be used with Zelparin"),
        ),
        candidate=ans(
            "In some patients clarithromycin can increase zelparin blood levels, so your "
            "doctor might monitor you more closely; the leaflet does not forbid combining "
            "them.",
            ok("In some patients clarithromycin can increase zelparin blood levels"),
            ok("so your doctor might monitor you more closely"),
        ),
    ),
    Case(
        "med-012",
        "medication",
        "How long before planned surgery should I stop taking Zelparin?",
        ("med-leaflet-2024", "med-leaflet-2021"),
        "Per the March 2024 leaflet: at least 48 hours before surgery with a high risk of "
        "bleeding and at least 24 hours before low-risk procedures. The June 2021 leaflet "
        "said 24 hours before any planned surgery.",
        ("conflicting-sources", "numeric"),
        baseline=ans(
            "The March 2024 leaflet says to stop at least 48 hours before surgery with a high "
            "risk of bleeding and at least 24 hours before low-risk procedures. The older June "
            "2021 leaflet said 12 hours before any planned surgery.",
            ok(
                "The March 2024 leaflet says to stop at least 48 hours before surgery with a "
                "high risk of bleeding"
            ),
            ok("at least 24 hours before low-risk procedures"),
            bad(
                "The older June 2021 leaflet said 12 hours before any planned surgery.",
                C,
                DIS,
                "MEDIUM",
                "the 2021 leaflet said 24 hours",
            ),
        ),
        candidate=ans(
            "Stop Zelparin at least 48 hours before an operation with a high bleeding risk, or "
            "at least 24 hours before for a low-risk procedure; this is the current March "
            "2024 advice.",
            ok("Stop Zelparin at least 48 hours before an operation with a high bleeding risk"),
            ok("or at least 24 hours before for a low-risk procedure"),
            ok("this is the current March 2024 advice"),
        ),
    ),
    Case(
        "med-013",
        "medication",
        "Is there an antidote if someone takes too much Zelparin?",
        ("med-leaflet-2024", "med-leaflet-2021"),
        "Yes, per the March 2024 leaflet: in life-threatening bleeding hospitals can give the "
        "reversal agent revazumab (Revarsa); activated charcoal may reduce absorption if given "
        "within 2 hours. The June 2021 leaflet said there was no specific antidote.",
        ("conflicting-sources", "lookup"),
        baseline=ans(
            "The March 2024 leaflet says hospitals can give the specific reversal agent "
            "revazumab (Revarsa) in life-threatening bleeding. Activated charcoal reduces "
            "absorption if given within 2 hours of the overdose. The 2021 leaflet said there "
            "was no specific antidote.",
            ok(
                "The March 2024 leaflet says hospitals can give the specific reversal agent "
                "revazumab (Revarsa) in life-threatening bleeding."
            ),
            bad(
                "Activated charcoal reduces absorption if given within 2 hours of the overdose.",
                P,
                OMI,
                "LOW",
                "the leaflet says it may reduce absorption",
            ),
            ok("The 2021 leaflet said there was no specific antidote."),
        ),
        candidate=ans(
            "According to the March 2024 leaflet, there is no specific antidote to Zelparin. "
            "Activated charcoal will prevent absorption if it is given within 6 hours.",
            bad(
                "According to the March 2024 leaflet, there is no specific antidote to Zelparin.",
                C,
                CIT,
                "CRITICAL",
                "the 2021 statement pinned on the 2024 leaflet, which names revazumab",
            ),
            bad(
                "Activated charcoal will prevent absorption if it is given within 6 hours.",
                C,
                DIS,
                "CRITICAL",
                "the leaflet says may reduce, within 2 hours",
            ),
        ),
    ),
    Case(
        "med-014",
        "medication",
        "Does grapefruit juice interact with Zelparin?",
        ("med-leaflet-2024", "med-leaflet-2021"),
        "Neither leaflet mentions grapefruit juice.",
        ("should-abstain",),
        baseline=ans("The leaflets do not mention grapefruit juice."),
        candidate=ans(
            "Neither leaflet says anything about grapefruit juice; ask your pharmacist if you "
            "are unsure."
        ),
    ),
]

LEGAL = [
    Case(
        "leg-001",
        "legal",
        "How much is the security deposit under the current Harbourview terms?",
        ("legal-tenancy-2025",),
        "Five weeks' rent, protected with the Tenancy Deposit Scheme (TDS) within 30 days of "
        "receipt.",
        ("lookup", "numeric"),
        baseline=ans(
            "The security deposit is five weeks' rent. It is protected with the Tenancy "
            "Deposit Scheme within 30 days of receipt, and the prescribed information is sent "
            "to you at the same time.",
            ok("The security deposit is five weeks' rent."),
            ok("It is protected with the Tenancy Deposit Scheme within 30 days of receipt"),
            bad(
                "the prescribed information is sent to you at the same time",
                P,
                DIS,
                "LOW",
                "the terms say within the same 30 days, not at the same time",
            ),
        ),
        candidate=ans(
            "The deposit equals five weeks of rent and must be registered with the Tenancy "
            "Deposit Scheme within 30 days of being received.",
            ok("The deposit equals five weeks of rent"),
            ok(
                "must be registered with the Tenancy Deposit Scheme within 30 days of being "
                "received"
            ),
        ),
    ),
    Case(
        "leg-002",
        "legal",
        "How much notice must I give to end my tenancy after the fixed term?",
        ("legal-tenancy-2025",),
        "At least one month's written notice, ending on the last day of a rental period.",
        ("lookup", "numeric"),
        baseline=ans(
            "After the fixed term, you must give at least one month's written notice, ending "
            "on the last day of a rental period.",
            ok("After the fixed term, you must give at least one month's written notice"),
            ok("ending on the last day of a rental period"),
        ),
        candidate=ans(
            "After the fixed term, you must give at least three months' written notice, which "
            "can end on any day of the month.",
            bad(
                "After the fixed term, you must give at least three months' written notice",
                C,
                DIS,
                "CRITICAL",
                "the terms say one month",
            ),
            bad(
                "which can end on any day of the month",
                C,
                DIS,
                "MEDIUM",
                "notice must end on the last day of a rental period",
            ),
        ),
    ),
    Case(
        "leg-003",
        "legal",
        "When can the break clause be used, and how much notice is needed?",
        ("legal-tenancy-2025", "legal-tenancy-2022"),
        "Under the February 2025 terms, after the sixth month with at least two months' "
        "written notice. The 2022 terms (for agreements signed before 1 February 2025) "
        "allowed it after the fourth month with one month's notice.",
        ("conflicting-sources", "numeric"),
        baseline=ans(
            "Under the February 2025 terms, either party can use the break clause after the "
            "sixth month by giving at least two months' written notice. The 2022 terms "
            "allowed it after the fourth month with one month's notice.",
            ok(
                "Under the February 2025 terms, either party can use the break clause after the "
                "sixth month by giving at least two months' written notice."
            ),
            ok("The 2022 terms allowed it after the fourth month with one month's notice."),
        ),
        candidate=ans(
            "Under the February 2025 terms, either party can use the break clause after the "
            "fourth month by giving at least one month's written notice.",
            bad(
                "Under the February 2025 terms, either party can use the break clause after "
                "the fourth month by giving at least one month's written notice.",
                C,
                CIT,
                "CRITICAL",
                "the 2022 rule attributed to the 2025 terms (sixth month, two months)",
            ),
        ),
    ),
    Case(
        "leg-004",
        "legal",
        "What happens if my rent is paid late?",
        ("legal-tenancy-2025",),
        "If rent is more than 14 days late the landlord may charge interest at 3% above the "
        "Bank of England base rate, from the day it was due.",
        ("lookup", "numeric"),
        baseline=ans(
            "If rent is more than 14 days late, the landlord may charge interest at 3% above "
            "the Bank of England base rate, calculated from the day it was due.",
            ok(
                "If rent is more than 14 days late, the landlord may charge interest at 3% above "
                "the Bank of England base rate, calculated from the day it was due."
            ),
        ),
        candidate=ans(
            "If rent is more than 14 days late, the landlord charges interest at 3% above the "
            "Bank of England base rate, plus a fixed late-payment fee of £30.",
            bad(
                "If rent is more than 14 days late, the landlord charges interest at 3% above "
                "the Bank of England base rate",
                P,
                OMI,
                "LOW",
                "the terms say the landlord may charge interest",
            ),
            bad("plus a fixed late-payment fee of £30", U, FAB, "HIGH", "no such fee exists"),
        ),
    ),
    Case(
        "leg-005",
        "legal",
        "Can I keep a cat in the flat?",
        ("legal-tenancy-2025",),
        "Only with the landlord's written consent, which will not be unreasonably refused; "
        "the landlord may ask for additional rent of up to £25 a month.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "You may keep a pet only with the landlord's written consent, which will not be "
            "unreasonably refused. If a pet is allowed, the landlord may ask for up to £25 "
            "extra rent per month.",
            ok(
                "You may keep a pet only with the landlord's written consent, which will not be "
                "unreasonably refused."
            ),
            ok("If a pet is allowed, the landlord may ask for up to £25 extra rent per month."),
        ),
        candidate=ans(
            "A cat is allowed only with the landlord's written consent, which should not be "
            "refused unreasonably; an extra rent of up to £25 a month may be requested.",
            ok(
                "A cat is allowed only with the landlord's written consent, which should not be "
                "refused unreasonably"
            ),
            ok("an extra rent of up to £25 a month may be requested"),
        ),
    ),
    Case(
        "leg-006",
        "legal",
        "My tenancy ends on 31 July and I disagree with the deductions. What is the latest "
        "date to raise a dispute with TDS?",
        ("legal-deposit-guide", "legal-tenancy-2025"),
        "A dispute must be raised with TDS within 3 months of the end of the tenancy, so by "
        "31 October.",
        ("multi-hop", "numeric"),
        baseline=ans(
            "A dispute must be raised with TDS within 3 months of the end of the tenancy, so "
            "for a tenancy ending on 31 July the deadline is 31 October.",
            ok("A dispute must be raised with TDS within 3 months of the end of the tenancy"),
            ok("so for a tenancy ending on 31 July the deadline is 31 October"),
        ),
        candidate=ans(
            "You have 6 months from the end of the tenancy to raise a dispute with TDS, so the "
            "deadline would be 31 January.",
            bad(
                "You have 6 months from the end of the tenancy to raise a dispute with TDS",
                C,
                DIS,
                "CRITICAL",
                "the guide says 3 months",
            ),
            bad(
                "so the deadline would be 31 January",
                C,
                DIS,
                "CRITICAL",
                "wrong legal deadline; it is 31 October",
            ),
        ),
    ),
    Case(
        "leg-007",
        "legal",
        "What happens to my deposit after I hand back the keys?",
        ("legal-deposit-guide",),
        "Check-out inspection within 5 working days; proposed deductions sent within 10 "
        "working days of the inspection; deposit minus agreed deductions returned within 10 "
        "days of agreement; disagreements can go to the free TDS adjudication service.",
        ("multi-hop",),
        baseline=ans(
            "Harbourview carries out a check-out inspection within 5 working days of you "
            "returning the keys. You are sent any proposed deductions within 10 days of the "
            "inspection, and the deposit minus agreed deductions is returned within 10 days of "
            "both sides agreeing. If you disagree, the dispute can go to the free TDS "
            "adjudication service.",
            ok(
                "Harbourview carries out a check-out inspection within 5 working days of you "
                "returning the keys."
            ),
            bad(
                "You are sent any proposed deductions within 10 days of the inspection",
                P,
                DIS,
                "LOW",
                "the guide says 10 working days",
            ),
            ok(
                "the deposit minus agreed deductions is returned within 10 days of both sides "
                "agreeing"
            ),
            ok("If you disagree, the dispute can go to the free TDS adjudication service."),
        ),
        candidate=ans(
            "Harbourview inspects the property within 5 working days of the keys being "
            "returned and sends you a list of proposed deductions within 10 working days. The "
            "deposit, less agreed deductions, is repaid within 10 days of agreement. If you "
            "disagree, you can use the Tenancy Deposit Scheme's free adjudication, whose "
            "decision is binding on both parties.",
            ok(
                "Harbourview inspects the property within 5 working days of the keys being returned"
            ),
            ok("sends you a list of proposed deductions within 10 working days"),
            ok("The deposit, less agreed deductions, is repaid within 10 days of agreement."),
            ok("If you disagree, you can use the Tenancy Deposit Scheme's free adjudication"),
            ok("whose decision is binding on both parties"),
        ),
    ),
    Case(
        "leg-008",
        "legal",
        "Which deposit protection scheme does Harbourview use?",
        ("legal-tenancy-2025", "legal-tenancy-2022", "legal-deposit-guide"),
        "For agreements from 1 February 2025, the Tenancy Deposit Scheme (TDS); the 2022 terms "
        "used the Deposit Protection Service (DPS).",
        ("lookup", "conflicting-sources"),
        baseline=ans(
            "Tenancies signed from 1 February 2025 have their deposit protected with the "
            "Tenancy Deposit Scheme (TDS). Under the 2022 terms, deposits were protected with "
            "the Deposit Protection Service (DPS).",
            ok(
                "Tenancies signed from 1 February 2025 have their deposit protected with the "
                "Tenancy Deposit Scheme (TDS)."
            ),
            ok(
                "Under the 2022 terms, deposits were protected with the Deposit Protection "
                "Service (DPS)."
            ),
        ),
        candidate=ans(
            "According to the deposits guide, Harbourview has protected deposits with the "
            "Deposit Protection Service since 2022.",
            bad(
                "According to the deposits guide, Harbourview has protected deposits with the "
                "Deposit Protection Service since 2022.",
                C,
                CIT,
                "MEDIUM",
                "the guide names TDS; DPS appears only in the 2022 terms",
            ),
        ),
    ),
    Case(
        "leg-009",
        "legal",
        "I lost my keys. How much will I be charged?",
        ("legal-tenancy-2025", "legal-tenancy-2022"),
        "The cost of replacement, capped at £75 per set under the 2025 terms (£100 per set "
        "under the 2022 terms); the exact amount depends on the replacement cost.",
        ("numeric", "ambiguous", "conflicting-sources"),
        baseline=ans(
            "Lost keys are replaced at your cost, capped at £75 per set under the 2025 terms. "
            "If your agreement was signed under the 2022 terms, the cap is £100 per set.",
            ok("Lost keys are replaced at your cost, capped at £75 per set under the 2025 terms."),
            ok("If your agreement was signed under the 2022 terms, the cap is £100 per set."),
        ),
        candidate=ans(
            "Replacing lost keys costs a flat £75 per key.",
            bad(
                "Replacing lost keys costs a flat £75 per key.",
                C,
                DIS,
                "MEDIUM",
                "the terms cap the actual cost at £75 per set",
            ),
        ),
    ),
    Case(
        "leg-010",
        "legal",
        "Can Harbourview increase my rent during the tenancy?",
        ("legal-tenancy-2025",),
        "The terms do not say anything about rent increases.",
        ("should-abstain",),
        baseline=ans(
            "The terms and conditions do not say whether or how the rent can be increased."
        ),
        candidate=ans(
            "Yes. Rent can be increased once a year by up to 5%, with 30 days' written notice "
            "to the tenant.",
            bad(
                "Rent can be increased once a year by up to 5%, with 30 days' written notice to "
                "the tenant.",
                U,
                FAB,
                "HIGH",
                "invented percentage and notice period",
            ),
        ),
    ),
    Case(
        "leg-011",
        "legal",
        "Who pays the council tax under the Harbourview terms?",
        ("legal-tenancy-2025", "legal-deposit-guide"),
        "The documents do not say who pays council tax.",
        ("should-abstain",),
        baseline=ans("The terms do not say who pays council tax."),
        candidate=ans(
            "Neither the tenancy terms nor the deposit guide say who is responsible "
            "for council tax."
        ),
    ),
    Case(
        "leg-012",
        "legal",
        "My boiler broke down in January. How quickly must it be fixed?",
        ("legal-tenancy-2025", "legal-tenancy-2022"),
        "Under the 2025 terms a total loss of heating is an emergency repair attended within "
        "24 hours; routine repairs are attended within 14 days.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "Total loss of heating counts as an emergency repair, which is attended within 24 "
            "hours. If the fault is treated as a routine repair instead, it must be fixed "
            "within 28 days.",
            ok(
                "Total loss of heating counts as an emergency repair, which is attended within "
                "24 hours."
            ),
            bad(
                "If the fault is treated as a routine repair instead, it must be fixed within "
                "28 days.",
                C,
                DIS,
                "MEDIUM",
                "28 days is the superseded 2022 rule; the current terms say 14 days",
            ),
        ),
        candidate=ans(
            "A complete loss of heating is an emergency repair and will be attended within 24 "
            "hours; routine repairs are handled within 14 days.",
            ok(
                "A complete loss of heating is an emergency repair and will be attended within "
                "24 hours"
            ),
            ok("routine repairs are handled within 14 days"),
        ),
    ),
    Case(
        "leg-013",
        "legal",
        "How often can the landlord inspect the property, and with how much notice?",
        ("legal-tenancy-2025",),
        "With at least 24 hours' written notice, no more than once every three months.",
        ("lookup", "numeric"),
        baseline=ans(
            "The landlord or agent may inspect with at least 24 hours' written notice, no more "
            "than once every three months.",
            ok("The landlord or agent may inspect with at least 24 hours' written notice"),
            ok("no more than once every three months"),
        ),
        candidate=ans(
            "Inspections need at least 24 hours' written notice and can happen at most once "
            "every three months.",
            ok("Inspections need at least 24 hours' written notice"),
            ok("can happen at most once every three months"),
        ),
    ),
]

PRODUCT = [
    Case(
        "prd-001",
        "product",
        "What is the maximum message size in NimbusQ API v3.2?",
        ("prod-api-v3",),
        "256 KB, including attributes.",
        ("lookup", "numeric"),
        baseline=ans(
            "The maximum message size is 256 KB, including attributes.",
            ok("The maximum message size is 256 KB, including attributes."),
        ),
        candidate=ans(
            "Messages can be up to 256 KB, attributes included.",
            ok("Messages can be up to 256 KB, attributes included."),
        ),
    ),
    Case(
        "prd-002",
        "product",
        "The docs I have say messages are limited to 64 KB. Is that still true?",
        ("prod-api-v3", "prod-api-v2"),
        "64 KB was the limit of API v2.4; in v3.2 the maximum message size is 256 KB.",
        ("conflicting-sources", "numeric"),
        baseline=ans(
            "The 64 KB limit applies to API v2.4. In v3.2 the maximum message size is 256 KB, "
            "including attributes.",
            ok("The 64 KB limit applies to API v2.4."),
            ok("In v3.2 the maximum message size is 256 KB, including attributes."),
        ),
        candidate=ans(
            "64 KB was the limit in the v2.4 API; version 3.2 raised it to 256 KB, attributes "
            "included.",
            ok("64 KB was the limit in the v2.4 API"),
            ok("version 3.2 raised it to 256 KB, attributes included"),
        ),
    ),
    Case(
        "prd-003",
        "product",
        "What request rate does a standard queue support?",
        ("prod-api-v3",),
        "Up to 3,000 requests per second per queue; 300 per second on the Free plan.",
        ("lookup", "numeric"),
        baseline=ans(
            "Standard queues accept up to 3,000 requests per second per account. On the Free "
            "plan the limit is 300 requests per second.",
            bad(
                "Standard queues accept up to 3,000 requests per second per account.",
                C,
                DIS,
                "MEDIUM",
                "the limit is per queue, not per account",
            ),
            ok("On the Free plan the limit is 300 requests per second."),
        ),
        candidate=ans(
            "A standard queue handles up to 3,000 requests per second, or 300 per second on the "
            "Free plan.",
            ok("A standard queue handles up to 3,000 requests per second"),
            ok("or 300 per second on the Free plan"),
        ),
    ),
    Case(
        "prd-004",
        "product",
        "What does error 429 mean and how should a client handle it?",
        ("prod-api-v3",),
        "429 RateLimited: the request rate was exceeded; the Retry-After header gives the "
        "number of seconds to wait.",
        ("lookup",),
        baseline=ans(
            "Error 429 RateLimited means the request rate has been exceeded. The response "
            "includes a Retry-After header with the number of seconds to wait before "
            "retrying.",
            ok("Error 429 RateLimited means the request rate has been exceeded."),
            ok(
                "The response includes a Retry-After header with the number of seconds to wait "
                "before retrying."
            ),
        ),
        candidate=ans(
            "Error 429 RateLimited means the request rate was exceeded, and the Retry-After "
            "header tells you how many seconds to wait.",
            ok("Error 429 RateLimited means the request rate was exceeded"),
            ok("the Retry-After header tells you how many seconds to wait"),
        ),
    ),
    Case(
        "prd-005",
        "product",
        "How much would it cost to send 5 million 256 KB messages to a standard queue in one "
        "month, ignoring data transfer?",
        ("prod-pricing", "prod-api-v3"),
        "Each 256 KB message is billed as four requests, so 20 million requests; after the "
        "first 1 million free, 19 million at $0.40 per million cost $7.60 (us-east prices).",
        ("multi-hop", "numeric"),
        baseline=ans(
            "Each 256 KB message is billed as four requests, so 5 million messages count as 20 "
            "million requests. After the first 1 million free requests, 19 million requests at "
            "$0.40 per million cost $7.60.",
            ok("Each 256 KB message is billed as four requests"),
            ok("so 5 million messages count as 20 million requests"),
            ok(
                "After the first 1 million free requests, 19 million requests at $0.40 per "
                "million cost $7.60."
            ),
        ),
        candidate=ans(
            "Each message counts as one request, so 5 million messages cost $2.00 at $0.40 per "
            "million.",
            bad(
                "Each message counts as one request",
                C,
                DIS,
                "MEDIUM",
                "each 64 KB chunk is billed as a request: a 256 KB message is four",
            ),
            bad(
                "so 5 million messages cost $2.00 at $0.40 per million",
                C,
                DIS,
                "MEDIUM",
                "ignores chunk billing and the free allowance; the cost is $7.60",
            ),
        ),
    ),
    Case(
        "prd-006",
        "product",
        "What uptime does the Enterprise plan guarantee, and what does it cost?",
        ("prod-pricing",),
        "99.95% monthly uptime; the plan starts at $1,500 per month.",
        ("lookup", "numeric"),
        baseline=ans(
            "The Enterprise plan commits to 99.95% monthly uptime and starts at $1,500 per month.",
            ok("The Enterprise plan commits to 99.95% monthly uptime"),
            ok("starts at $1,500 per month"),
        ),
        candidate=ans(
            "The Enterprise plan commits to 99.99% monthly uptime and starts at $1,500 per "
            "month, with a dedicated support engineer on call 24/7.",
            bad(
                "The Enterprise plan commits to 99.99% monthly uptime",
                C,
                DIS,
                "MEDIUM",
                "the commitment is 99.95%",
            ),
            ok("starts at $1,500 per month"),
            bad(
                "with a dedicated support engineer on call 24/7",
                U,
                FAB,
                "LOW",
                "the page promises a named account manager and 1-hour sev-1 response",
            ),
        ),
    ),
    Case(
        "prd-007",
        "product",
        "How long can messages be retained?",
        ("prod-api-v3", "prod-api-v2"),
        "In v3.2 retention defaults to 4 days and can be set from 1 minute to 14 days; v2.4 "
        "allowed at most 7 days.",
        ("conflicting-sources", "numeric"),
        baseline=ans(
            "In API v3.2, retention defaults to 4 days and can be set from 1 minute to 14 days. "
            "The older v2.4 API allowed up to 7 days.",
            ok("In API v3.2, retention defaults to 4 days"),
            ok("can be set from 1 minute to 14 days"),
            ok("The older v2.4 API allowed up to 7 days."),
        ),
        candidate=ans(
            "Messages are kept for 4 days by default, and the v2.4 reference allows retention "
            "of up to 14 days.",
            ok("Messages are kept for 4 days by default"),
            bad(
                "the v2.4 reference allows retention of up to 14 days",
                C,
                CIT,
                "LOW",
                "14 days is the v3.2 limit; v2.4 allowed 7 days",
            ),
        ),
    ),
    Case(
        "prd-008",
        "product",
        "Will my existing v2 integration keep working?",
        ("prod-api-v3", "prod-api-v2"),
        "No: the v2 API is deprecated and will be switched off on 30 June 2025. Note that the "
        "v3.2 Python SDK (nimbusq 3.2.0) requires Python 3.9 or later, versus 3.7 for v2.4.",
        ("ambiguous", "multi-hop"),
        baseline=ans(
            "The v2 API is deprecated and will be switched off on 30 June 2025, so a v2 "
            "integration will stop working then. The v3.2 Python SDK requires Python 3.9 or "
            "later, whereas the v2.4 SDK needed Python 3.6 or later.",
            ok("The v2 API is deprecated and will be switched off on 30 June 2025"),
            ok("so a v2 integration will stop working then"),
            ok("The v3.2 Python SDK requires Python 3.9 or later"),
            bad(
                "whereas the v2.4 SDK needed Python 3.6 or later",
                C,
                DIS,
                "LOW",
                "the v2.4 SDK required Python 3.7 or later",
            ),
        ),
        candidate=ans(
            "The v2 API is deprecated and will be switched off on 31 December 2025. Corvane "
            "will automatically migrate existing v2 integrations to v3.",
            ok("The v2 API is deprecated"),
            bad(
                "will be switched off on 31 December 2025",
                C,
                DIS,
                "HIGH",
                "the shutdown date is 30 June 2025",
            ),
            bad(
                "Corvane will automatically migrate existing v2 integrations to v3.",
                U,
                FAB,
                "MEDIUM",
                "no automatic migration is mentioned",
            ),
        ),
    ),
    Case(
        "prd-009",
        "product",
        "What does error 503 mean?",
        ("prod-api-v3",),
        "503 QueueUnavailable is returned during a failover; it usually clears within a few "
        "seconds but in rare cases may last up to 2 minutes.",
        ("lookup",),
        baseline=ans(
            "Error 503 QueueUnavailable is returned during a failover and clears within a few "
            "seconds.",
            ok("Error 503 QueueUnavailable is returned during a failover"),
            bad(
                "clears within a few seconds",
                P,
                OMI,
                "LOW",
                "usually; in rare cases it may last up to 2 minutes",
            ),
        ),
        candidate=ans(
            "A 503 QueueUnavailable error means the queue is failing over; it normally clears "
            "in a few seconds but can occasionally last as long as 2 minutes.",
            ok("A 503 QueueUnavailable error means the queue is failing over"),
            ok(
                "it normally clears in a few seconds but can occasionally last as long as 2 minutes"
            ),
        ),
    ),
    Case(
        "prd-010",
        "product",
        "Does NimbusQ support encryption with customer-managed keys?",
        ("prod-api-v3", "prod-pricing"),
        "The documents do not mention encryption or customer-managed keys.",
        ("should-abstain",),
        baseline=ans(
            "The API reference and the pricing page do not mention encryption or "
            "customer-managed keys."
        ),
        candidate=ans(
            "Yes. NimbusQ encrypts all messages at rest with AES-256 and supports "
            "customer-managed keys on the Enterprise plan.",
            bad(
                "NimbusQ encrypts all messages at rest with AES-256",
                U,
                FAB,
                "HIGH",
                "invented algorithm and guarantee",
            ),
            bad(
                "supports customer-managed keys on the Enterprise plan",
                U,
                FAB,
                "MEDIUM",
                "invented feature",
            ),
        ),
    ),
    Case(
        "prd-011",
        "product",
        "What is the maximum number of queues per account?",
        ("prod-api-v3",),
        "The API reference does not state a limit on the number of queues.",
        ("should-abstain",),
        baseline=ans(
            "The API reference does not state a limit on the number of queues per account."
        ),
        candidate=ans("The v3.2 reference does not give a maximum number of queues per account."),
    ),
    Case(
        "prd-012",
        "product",
        "How much service credit would I get if uptime was 99.92% last month?",
        ("prod-pricing",),
        "It depends on the plan: on Standard (99.9% commitment) 99.92% meets the commitment, "
        "so no credit; on Enterprise (99.95%) it falls short, so 10% of the monthly bill. "
        "Credits must be requested within 30 days of the end of the month.",
        ("ambiguous", "numeric", "multi-hop"),
        baseline=ans(
            "It depends on your plan. On the Standard plan, 99.92% meets the 99.9% commitment, "
            "so no credit is due; on the Enterprise plan it is below the 99.95% commitment, so "
            "you would receive a 10% service credit. Credits must be requested within 30 days "
            "of the end of the affected month.",
            ok("On the Standard plan, 99.92% meets the 99.9% commitment, so no credit is due"),
            ok(
                "on the Enterprise plan it is below the 99.95% commitment, so you would receive "
                "a 10% service credit"
            ),
            ok("Credits must be requested within 30 days of the end of the affected month."),
        ),
        candidate=ans(
            "You would receive a service credit of 10% of your monthly bill, which is applied "
            "automatically to your next invoice.",
            bad(
                "You would receive a service credit of 10% of your monthly bill",
                P,
                DIS,
                "LOW",
                "true only on the Enterprise plan; Standard gets nothing at 99.92%",
            ),
            bad(
                "which is applied automatically to your next invoice",
                C,
                DIS,
                "MEDIUM",
                "credits must be requested within 30 days",
            ),
        ),
    ),
    Case(
        "prd-013",
        "product",
        "I call SendMessageBatch with 10 messages of 30 KB each. What happens?",
        ("prod-api-v3",),
        "The batch totals 300 KB, above the 256 KB batch limit, so the call is rejected with "
        "error 413 PayloadTooLarge.",
        ("multi-hop", "numeric"),
        baseline=ans(
            "Ten 30 KB messages total 300 KB, which exceeds the 256 KB limit for a batch. The "
            "call would be rejected with error 413 PayloadTooLarge.",
            ok("Ten 30 KB messages total 300 KB, which exceeds the 256 KB limit for a batch."),
            ok("The call would be rejected with error 413 PayloadTooLarge."),
        ),
        candidate=ans(
            "The call succeeds, because each message is under the 256 KB message limit and a "
            "batch can hold up to 10 messages.",
            bad(
                "The call succeeds",
                C,
                DIS,
                "MEDIUM",
                "the 300 KB batch exceeds the 256 KB batch limit and gets a 413",
            ),
            ok("because each message is under the 256 KB message limit"),
            ok("a batch can hold up to 10 messages"),
        ),
    ),
]

TRAVEL = [
    Case(
        "trv-001",
        "travel",
        "What is the emergency medical cover on the Silver plan?",
        ("travel-policy-2025",),
        "Up to £2 million.",
        ("lookup", "numeric"),
        baseline=ans(
            "Emergency medical expenses are covered up to £2 million on the Silver plan.",
            ok("Emergency medical expenses are covered up to £2 million on the Silver plan."),
        ),
        candidate=ans(
            "Silver covers emergency medical costs up to £2 million, which is typical for UK "
            "travel insurance.",
            ok("Silver covers emergency medical costs up to £2 million"),
            bad(
                "which is typical for UK travel insurance",
                OOS,
                None,
                "LOW",
                "a market comparison the documents do not make",
            ),
        ),
    ),
    Case(
        "trv-002",
        "travel",
        "My friend says Silver only covers £1 million of medical expenses. Is that right?",
        ("travel-policy-2025", "travel-policy-2023"),
        "£1 million was the Silver limit for policies issued 1 March 2023 to 31 December 2024; "
        "for policies issued from 1 January 2025 it is £2 million.",
        ("conflicting-sources", "numeric"),
        baseline=ans(
            "That was true for Silver policies issued between 1 March 2023 and 31 December "
            "2024, which covered up to £1 million. For policies issued from 1 January 2025, "
            "Silver covers up to £2 million.",
            ok(
                "That was true for Silver policies issued between 1 March 2023 and 31 December "
                "2024, which covered up to £1 million."
            ),
            ok("For policies issued from 1 January 2025, Silver covers up to £2 million."),
        ),
        candidate=ans(
            "Yes, the 2025 policy wording limits Silver medical cover to £1 million.",
            bad(
                "the 2025 policy wording limits Silver medical cover to £1 million",
                C,
                CIT,
                "HIGH",
                "£1 million is the 2023 figure; the 2025 wording says £2 million",
            ),
        ),
    ),
    Case(
        "trv-003",
        "travel",
        "What excess applies to a claim on the Gold plan?",
        ("travel-policy-2025",),
        "£50 per person per claim.",
        ("lookup", "numeric"),
        baseline=ans(
            "An excess of £50 per person per claim applies on Gold, which is lower than most "
            "insurers charge.",
            ok("An excess of £50 per person per claim applies on Gold"),
            bad(
                "which is lower than most insurers charge",
                OOS,
                None,
                "LOW",
                "a market comparison the documents do not make",
            ),
        ),
        candidate=ans(
            "On Gold, the excess is £50 per person for each claim.",
            ok("On Gold, the excess is £50 per person for each claim."),
        ),
    ),
    Case(
        "trv-004",
        "travel",
        "My bag with a £600 camera was stolen and I have a Silver policy. How much can I get "
        "back for the camera?",
        ("travel-policy-2025",),
        "The Silver single-item limit is £250, so at most £250 less the £100 excess. A police "
        "report obtained within 24 hours may be required.",
        ("multi-hop", "numeric", "ambiguous"),
        baseline=ans(
            "Silver has a single-item limit of £250, so the most you could claim for the camera "
            "is £250, less the £100 excess per claim. You may need a police report obtained "
            "within 24 hours of discovering the theft.",
            ok("Silver has a single-item limit of £250"),
            ok(
                "so the most you could claim for the camera is £250, less the £100 excess per claim"
            ),
            ok("You may need a police report obtained within 24 hours of discovering the theft."),
        ),
        candidate=ans(
            "Silver pays up to £1,000 for baggage, so the full £600 for the camera would be "
            "covered. You must provide a police report obtained within 48 hours.",
            ok("Silver pays up to £1,000 for baggage"),
            bad(
                "so the full £600 for the camera would be covered",
                C,
                DIS,
                "MEDIUM",
                "ignores the £250 single-item limit",
            ),
            bad(
                "You must provide a police report obtained within 48 hours.",
                C,
                DIS,
                "MEDIUM",
                "the wording says a report within 24 hours may be required",
            ),
        ),
    ),
    Case(
        "trv-005",
        "travel",
        "Are pre-existing medical conditions covered?",
        ("travel-policy-2025",),
        "All pre-existing conditions must be declared; a claim related to an undeclared "
        "condition may be declined. The wording does not say declared conditions are "
        "automatically covered.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "You must declare all pre-existing medical conditions. If you do not, a claim "
            "related to an undeclared condition may be declined.",
            ok("You must declare all pre-existing medical conditions."),
            ok("If you do not, a claim related to an undeclared condition may be declined."),
        ),
        candidate=ans(
            "Pre-existing conditions are covered once declared, and any claim linked to an "
            "undeclared condition will be declined.",
            bad(
                "Pre-existing conditions are covered once declared",
                U,
                FAB,
                "MEDIUM",
                "the wording only requires declaration; it promises no cover",
            ),
            bad(
                "any claim linked to an undeclared condition will be declined",
                U,
                OMI,
                "MEDIUM",
                "the wording says may be declined",
            ),
        ),
    ),
    Case(
        "trv-006",
        "travel",
        "I got home on 3 March 2025 from a trip insured under a 2025 policy. What is the last "
        "day to submit my claim?",
        ("travel-policy-2025", "travel-policy-2023"),
        "Claims must be submitted within 31 days of returning home, so by 3 April 2025 (the "
        "older 2023 wording allowed 28 days).",
        ("multi-hop", "numeric", "conflicting-sources"),
        baseline=ans(
            "Claims must be submitted within 31 days of your return home, so the deadline is 3 "
            "April 2025.",
            ok("Claims must be submitted within 31 days of your return home"),
            ok("so the deadline is 3 April 2025"),
        ),
        candidate=ans(
            "Claims must be submitted within 28 days of your return, so the deadline is 31 "
            "March 2025.",
            bad(
                "Claims must be submitted within 28 days of your return",
                C,
                DIS,
                "MEDIUM",
                "28 days is the 2023 wording; the 2025 wording says 31 days",
            ),
            bad(
                "so the deadline is 31 March 2025", C, DIS, "MEDIUM", "the deadline is 3 April 2025"
            ),
        ),
    ),
    Case(
        "trv-007",
        "travel",
        "Is winter sports cover included on the Silver plan?",
        ("travel-policy-2025", "travel-policy-2023"),
        "Not included on Silver, but it can be added for £35; Gold includes it (policies from "
        "1 January 2025). The 2023 wording covered winter sports on neither plan.",
        ("lookup", "conflicting-sources"),
        baseline=ans(
            "Winter sports are not included on Silver, but they can be added for an extra "
            "premium of £35. They are included on Gold.",
            ok(
                "Winter sports are not included on Silver, but they can be added for an extra "
                "premium of £35."
            ),
            ok("They are included on Gold."),
        ),
        candidate=ans(
            "Silver does not include winter sports unless you buy the £35 add-on; Gold includes "
            "them.",
            ok("Silver does not include winter sports unless you buy the £35 add-on"),
            ok("Gold includes them"),
        ),
    ),
    Case(
        "trv-008",
        "travel",
        "Am I covered if my airline goes bankrupt before I travel?",
        ("travel-policy-2025", "travel-claims-faq"),
        "The documents do not say whether airline insolvency is covered.",
        ("should-abstain",),
        baseline=ans(
            "The policy wording and the claims FAQ do not say whether airline "
            "insolvency is covered."
        ),
        candidate=ans(
            "Yes. Airline insolvency is covered under the cancellation section, up to £1,500 on "
            "Silver and £5,000 on Gold.",
            bad(
                "Airline insolvency is covered under the cancellation section, up to £1,500 on "
                "Silver and £5,000 on Gold.",
                U,
                FAB,
                "HIGH",
                "invented cover; the limits belong to ordinary cancellation",
            ),
        ),
    ),
    Case(
        "trv-009",
        "travel",
        "Does the policy cover the excess on a rental car?",
        ("travel-policy-2025",),
        "The policy wording does not mention rental car excess.",
        ("should-abstain",),
        baseline=ans("The policy wording does not mention rental car excess cover."),
        candidate=ans("Neither plan's wording says anything about cover for a rental car excess."),
    ),
    Case(
        "trv-010",
        "travel",
        "What is the emergency assistance number, and when must I call it?",
        ("travel-claims-faq",),
        "+44 20 7946 0321, open 24 hours; call before any medical treatment expected to cost "
        "more than £500, unless it is an emergency.",
        ("lookup",),
        baseline=ans(
            "The 24-hour emergency assistance line is +44 20 7946 0321. You must call it before "
            "receiving medical treatment expected to cost more than £500, unless it is an "
            "emergency.",
            ok("The 24-hour emergency assistance line is +44 20 7946 0321."),
            ok(
                "You must call it before receiving medical treatment expected to cost more than "
                "£500, unless it is an emergency."
            ),
        ),
        candidate=ans(
            "Call Ardent Assistance on +44 20 7946 0321, available 24 hours a day, before any "
            "medical treatment expected to cost over £500 unless it's an emergency.",
            ok("Call Ardent Assistance on +44 20 7946 0321, available 24 hours a day"),
            ok("before any medical treatment expected to cost over £500 unless it's an emergency"),
        ),
    ),
    Case(
        "trv-011",
        "travel",
        "How long does it take to get paid after I claim?",
        ("travel-claims-faq",),
        "Most claims are settled within 10 working days of Wayfarer receiving all the "
        "documents; some take longer, for example if a medical report from abroad is needed.",
        ("lookup", "ambiguous"),
        baseline=ans(
            "Most claims are settled within 10 working days of Wayfarer receiving all the "
            "documents it needs. Some claims may take longer, for example if a medical report "
            "from a doctor abroad is needed.",
            ok(
                "Most claims are settled within 10 working days of Wayfarer receiving all the "
                "documents it needs."
            ),
            ok(
                "Some claims may take longer, for example if a medical report from a doctor "
                "abroad is needed."
            ),
        ),
        candidate=ans(
            "Claims are settled within 10 working days of receiving your documents, and payment "
            "is made by bank transfer in pounds sterling. If a claim takes longer, you get a "
            "further 10 weeks of cover at half price.",
            bad(
                "Claims are settled within 10 working days of receiving your documents",
                P,
                OMI,
                "LOW",
                "the FAQ says most claims; some take longer",
            ),
            ok("payment is made by bank transfer in pounds sterling"),
            bad(
                "If a claim takes longer, you get a further 10 weeks of cover at half price.",
                U,
                FAB,
                "HIGH",
                "invented: the FAQ offers nothing for slow claims; only '10 working days' is "
                "there, about something else",
            ),
        ),
    ),
    Case(
        "trv-012",
        "travel",
        "I'm 77 and planning a 40-day trip. Can I get a Wayfarer single-trip policy, and which "
        "plan?",
        ("travel-policy-2025", "travel-policy-2023"),
        "Yes, under the 2025 wording: cover is available up to age 79, and only Gold allows "
        "trips over 31 days (up to 45), so Gold. The 2023 wording had an age limit of 74.",
        ("multi-hop", "conflicting-sources", "numeric"),
        baseline=ans(
            "Yes. Policies issued from 1 January 2025 cover travellers aged up to 79, and only "
            "Gold allows trips longer than 31 days (up to 45 days), so you would need Gold. "
            "Under the older 2023 wording you would not have been eligible, because the age "
            "limit was 74.",
            ok("Policies issued from 1 January 2025 cover travellers aged up to 79"),
            ok("only Gold allows trips longer than 31 days (up to 45 days)"),
            ok("so you would need Gold"),
            ok(
                "Under the older 2023 wording you would not have been eligible, because the age "
                "limit was 74."
            ),
        ),
        candidate=ans(
            "You can: the current wording covers people up to age 79, and Gold allows trips of "
            "up to 45 days while Silver stops at 31, so choose Gold.",
            ok("the current wording covers people up to age 79"),
            ok("Gold allows trips of up to 45 days while Silver stops at 31"),
            ok("so choose Gold"),
        ),
    ),
    Case(
        "trv-013",
        "travel",
        "Is travel delay covered on the Silver plan?",
        ("travel-policy-2025",),
        "No. Travel delay benefit is paid on Gold only: £20 for every full 12 hours, up to £200.",
        ("lookup", "numeric"),
        baseline=ans(
            "No. Travel delay benefit is paid on Gold only, at £20 for every full 12 hours of "
            "delay up to £200.",
            ok("Travel delay benefit is paid on Gold only"),
            ok("at £20 for every full 12 hours of delay up to £200"),
        ),
        candidate=ans(
            "Only Gold policies pay a travel delay benefit: £20 per full 12 hours, capped at £200.",
            ok("Only Gold policies pay a travel delay benefit"),
            ok("£20 per full 12 hours, capped at £200"),
        ),
    ),
]

CASES: list[Case] = MEDICATION + LEGAL + PRODUCT + TRAVEL

# --------------------------------------------------------------------------- building

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9£$+])")


def count_sentences(text: str) -> int:
    """Rough sentence count, enough to keep documents and answers within their bounds."""
    return len([s for s in _SENTENCE_END.split(text.strip()) if s])


def locate(answer: str, claim: str, where: str) -> int:
    """Start offset of `claim` in `answer`; it must occur exactly once."""
    first = answer.find(claim)
    if first < 0:
        raise BuildError(f"{where}: claim not found in answer: {claim!r}")
    if answer.find(claim, first + 1) >= 0:
        raise BuildError(f"{where}: claim occurs more than once in answer: {claim!r}")
    return first


def check_label(label: ClaimLabel, where: str) -> None:
    """Verdict, type and severity must be consistent with each other."""
    if label.verdict not in VERDICTS:
        raise BuildError(f"{where}: unknown verdict {label.verdict!r}")
    if label.verdict == "SUPPORTED":
        if label.hallucination_type or label.severity:
            raise BuildError(f"{where}: a SUPPORTED claim has no type or severity")
        return
    if label.severity not in SEVERITIES:
        raise BuildError(f"{where}: non-supported claim needs a severity: {label.text!r}")
    if label.verdict == "OUT_OF_SCOPE":
        if label.hallucination_type is not None:
            raise BuildError(f"{where}: OUT_OF_SCOPE claims carry no type")
    elif label.hallucination_type not in TYPES:
        raise BuildError(f"{where}: non-supported claim needs a type: {label.text!r}")


def label_answer(case: Case, system: str) -> dict:
    """The labels.jsonl record of one answer, with computed spans."""
    answer: Answer = getattr(case, system)
    where = f"{case.case_id}/{system}"
    spans = []
    for label in answer.claims:
        check_label(label, where)
        start = locate(answer.text, label.text, where)
        spans.append((start, start + len(label.text), label))
    spans.sort(key=lambda s: s[0])
    for (_, end_a, a), (start_b, _, b) in zip(spans, spans[1:], strict=False):
        if start_b < end_a:
            raise BuildError(f"{where}: claims overlap: {a.text!r} / {b.text!r}")
    claims = [
        {
            "start": start,
            "end": end,
            "text": label.text,
            "verdict": label.verdict,
            "hallucination_type": label.hallucination_type,
            "severity": label.severity,
        }
        for start, end, label in spans
    ]
    for c in claims:  # belt and braces: the invariant the loader checks
        if answer.text[c["start"] : c["end"]] != c["text"]:
            raise BuildError(f"{where}: span does not match claim text {c['text']!r}")
    return {"case_id": case.case_id, "system": system, "claims": claims}


def validate_suite() -> None:
    """Structural checks over documents and cases; raises BuildError on the first problem."""
    doc_ids = [d["doc_id"] for d in DOCUMENTS]
    if len(set(doc_ids)) != len(doc_ids):
        raise BuildError("duplicate doc_id")
    for d in DOCUMENTS:
        n = count_sentences(d["text"])
        if not 8 <= n <= 30:
            raise BuildError(f"document {d['doc_id']}: {n} sentences, want 8-30")
    case_ids = [c.case_id for c in CASES]
    if len(set(case_ids)) != len(case_ids):
        raise BuildError("duplicate case_id")
    used_docs: set[str] = set()
    for case in CASES:
        _validate_case(case, doc_ids)
        used_docs.update(case.doc_ids)
    if unused := set(doc_ids) - used_docs:
        raise BuildError(f"documents used by no case: {sorted(unused)}")
    tag_counts = Counter(t for c in CASES for t in c.tags)
    for tag in TAGS:
        if tag_counts[tag] < MIN_CASES_PER_TAG:
            raise BuildError(f"tag {tag!r} used by {tag_counts[tag]} cases, want >= 4")


def _validate_case(case: Case, doc_ids: list[str]) -> None:
    """One case's documents, tags, domain and answer lengths."""
    for doc_id in case.doc_ids:
        if doc_id not in doc_ids:
            raise BuildError(f"{case.case_id}: unknown doc_id {doc_id!r}")
    for tag in case.tags:
        if tag not in TAGS:
            raise BuildError(f"{case.case_id}: unknown tag {tag!r}")
    if case.domain not in RISK_BY_DOMAIN:
        raise BuildError(f"{case.case_id}: unknown domain {case.domain!r}")
    for system in SYSTEMS:
        n = count_sentences(getattr(case, system).text)
        if not 1 <= n <= 4:
            raise BuildError(f"{case.case_id}/{system}: {n} sentences, want 1-4")


def check_coverage(labels: list[dict]) -> None:
    """The candidate must show every type and severity, and enough CRITICAL claims."""
    cand = [c for rec in labels if rec["system"] == "candidate" for c in rec["claims"]]
    types = {c["hallucination_type"] for c in cand} - {None}
    sevs = {c["severity"] for c in cand} - {None}
    if missing := set(TYPES) - types:
        raise BuildError(f"candidate lacks hallucination types {sorted(missing)}")
    if missing := set(SEVERITIES) - sevs:
        raise BuildError(f"candidate lacks severities {sorted(missing)}")
    domain = {c.case_id: c.domain for c in CASES}
    for dom in ("medication", "legal"):
        n = sum(
            1
            for rec in labels
            if rec["system"] == "candidate" and domain[rec["case_id"]] == dom
            for c in rec["claims"]
            if c["severity"] == "CRITICAL"
        )
        if n < 4:
            raise BuildError(f"candidate has only {n} CRITICAL claims in {dom}")


# --------------------------------------------------------------------------- reporting


def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def summarise(labels: list[dict]) -> str:
    """Markdown tables of cases, verdicts and inserted hallucinations (computed, not typed)."""
    domain = {c.case_id: c.domain for c in CASES}
    domains = list(RISK_BY_DOMAIN)
    out = []

    rows = []
    for dom in domains:
        cases = [c for c in CASES if c.domain == dom]
        docs = sorted({d for c in cases for d in c.doc_ids})
        rows.append([dom, RISK_BY_DOMAIN[dom], len(cases), ", ".join(docs)])
    rows.append(["**total**", "", len(CASES), f"{len(DOCUMENTS)} documents"])
    out.append("### Domains\n\n" + _table(["domain", "risk_level", "cases", "documents"], rows))

    tag_counts = Counter(t for c in CASES for t in c.tags)
    out.append(
        "### Cases per tag\n\n" + _table(["tag", "cases"], [[t, tag_counts[t]] for t in TAGS])
    )

    rows = []
    for system in SYSTEMS:
        recs = [r for r in labels if r["system"] == system]
        claims = [c for r in recs for c in r["claims"]]
        verdicts = Counter(c["verdict"] for c in claims)
        flawed = sum(1 for r in recs if any(c["verdict"] != "SUPPORTED" for c in r["claims"]))
        share = verdicts["SUPPORTED"] / len(claims)
        rows.append(
            [system, len(claims)]
            + [verdicts[v] for v in VERDICTS]
            + [f"{share:.1%}", f"{flawed}/{len(recs)}"]
        )
    out.append(
        "### Claims per verdict\n\n"
        + _table(["system", "claims", *VERDICTS, "supported share", "answers with a flaw"], rows)
    )

    for system in SYSTEMS:
        claims = [
            c
            for r in labels
            if r["system"] == system
            for c in r["claims"]
            if c["verdict"] != "SUPPORTED"
        ]
        grid = Counter((c["hallucination_type"] or "(out of scope)", c["severity"]) for c in claims)
        rows = []
        for htype in (*TYPES, "(out of scope)"):
            counts = [grid[(htype, s)] for s in SEVERITIES]
            if sum(counts):
                rows.append([htype, *counts, sum(counts)])
        totals = [sum(grid[(t, s)] for t in (*TYPES, "(out of scope)")) for s in SEVERITIES]
        rows.append(["**total**", *totals, sum(totals)])
        out.append(
            f"### Non-supported claims in `{system}` (type x severity)\n\n"
            + _table(["type", *SEVERITIES, "total"], rows)
        )

    rows = []
    for dom in domains:
        claims = [
            c
            for r in labels
            if r["system"] == "candidate" and domain[r["case_id"]] == dom
            for c in r["claims"]
            if c["verdict"] != "SUPPORTED"
        ]
        sev = Counter(c["severity"] for c in claims)
        rows.append([dom, *[sev[s] for s in SEVERITIES], len(claims)])
    out.append(
        "### Non-supported claims in `candidate` per domain\n\n"
        + _table(["domain", *SEVERITIES, "total"], rows)
    )
    return "\n\n".join(out)


README_HEAD = """\
# acme-helpdesk - example golden suite

A bundled golden QA suite for halgate: a helpdesk that answers questions from four kinds of
source documents. The `baseline` system is mostly faithful (a few mild LOW/MEDIUM errors, as
a real system would make); the `candidate` system carries deliberately inserted
hallucinations of every type and severity, so `halgate compare` should detect a regression.
`labels.jsonl` holds the expected claims of every answer, so any judge can be scored
(`halgate eval-judge`).

All documents, products, companies, people and numbers are invented.

**Do not edit the JSON files by hand.** They are generated by
`data/examples/build_labels.py`, which holds every document, case, answer and claim label
with the reason for each inserted error; edit it and run
`python data/examples/build_labels.py` to regenerate this folder (the output is
deterministic).

## Files

| file | content |
|---|---|
| `suite.json` | name and description |
| `documents.jsonl` | source documents (`doc_id`, `title`, `text`) |
| `cases.jsonl` | questions with `doc_ids`, `reference_answer`, `tags`, `risk_level`, `domain` |
| `answers/baseline.jsonl`, `answers/candidate.jsonl` | one answer per case per system |
| `labels.jsonl` | expected claims per (case, system): span, text, verdict, type, severity |

## Labelling conventions

- A claim is one verifiable statement: a sentence, or a clause when a sentence carries several
  facts. Abstentions ("The leaflet does not mention ...") and pure procedure ("Ask your
  pharmacist.") are not claims; an answer that only abstains has no claims.
- Each domain has older and newer versions of a document that disagree
  (`conflicting-sources`); the newer version is the one in force.
- FABRICATION: invented fact, absent from the sources (usually UNSUPPORTED).
  DISTORTION: a fact changed so it means something else (CONTRADICTED when the source says
  otherwise; PARTIALLY_SUPPORTED for a minor imprecision).
  OMISSION_AS_FACT: a hedge dropped ("may", "in some patients", "is thought to").
  CITATION_ERROR: a fact pinned on the wrong document or version.
  OUT_OF_SCOPE claims (remarks the documents do not address) carry no type and severity LOW.
- Severity: CRITICAL = a contradicted or fabricated claim that could make a reader act against
  their safety or their legal rights and obligations (doses, contraindications, notice
  periods, deadlines); HIGH = a fabricated or falsified number, name, date or statistic;
  MEDIUM = a distortion that changes the meaning; LOW = minor imprecision or out-of-scope.

## Counts
"""


def write_jsonl(path: Path, records: list[dict]) -> None:
    """Write one compact JSON object per line, UTF-8, trailing newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path.write_text(text, encoding="utf-8", newline="\n")


def build() -> str:
    """Validate everything, write the suite folder, and return the counts summary."""
    validate_suite()
    labels = [label_answer(case, system) for case in CASES for system in SYSTEMS]
    check_coverage(labels)

    SUITE_DIR.mkdir(parents=True, exist_ok=True)
    suite = {
        "name": "acme-helpdesk",
        "description": (
            "Helpdesk QA over a medication leaflet, tenancy terms, an API reference and a "
            "travel insurance policy. The baseline is mostly faithful; the candidate carries "
            "deliberately inserted hallucinations of every type and severity."
        ),
    }
    (SUITE_DIR / "suite.json").write_text(
        json.dumps(suite, ensure_ascii=False, indent=2) + "\n", encoding="utf-8", newline="\n"
    )
    write_jsonl(SUITE_DIR / "documents.jsonl", DOCUMENTS)
    write_jsonl(
        SUITE_DIR / "cases.jsonl",
        [
            {
                "case_id": c.case_id,
                "question": c.question,
                "doc_ids": list(c.doc_ids),
                "reference_answer": c.reference_answer,
                "tags": list(c.tags),
                "risk_level": RISK_BY_DOMAIN[c.domain],
                "domain": c.domain,
            }
            for c in CASES
        ],
    )
    for system in SYSTEMS:
        write_jsonl(
            SUITE_DIR / "answers" / f"{system}.jsonl",
            [{"case_id": c.case_id, "answer": getattr(c, system).text} for c in CASES],
        )
    write_jsonl(SUITE_DIR / "labels.jsonl", labels)

    summary = summarise(labels)
    (SUITE_DIR / "README.md").write_text(
        README_HEAD + "\n" + summary + "\n", encoding="utf-8", newline="\n"
    )
    return summary


def main() -> int:
    """Entry point: build the suite and print the counts, or one clear error line."""
    try:
        summary = build()
    except BuildError as exc:
        print(f"build_labels: {exc}", file=sys.stderr)
        return 1
    print(summary)
    print(f"\nwrote {SUITE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
